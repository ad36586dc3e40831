"""Drop-in APIs of the libraries toolmend replaces.

    from toolmend.compat import json_repair   # json-repair's repair_json / loads / load / from_file
"""
