"""Drop-in replacements for other libraries' APIs, backed by toolmend."""
