"""Curly (typographic) quotes -> ASCII, for tool-call arguments and code files."""

from __future__ import annotations

import os

from .._text import CURLY_TO_ASCII

__all__ = ["normalize_quotes", "is_code_path", "CODE_EXTENSIONS", "CODE_FILENAMES"]

#: File extensions (lower case, with the dot) treated as code.
CODE_EXTENSIONS = frozenset("""
.c .h .cc .cpp .cxx .hpp .hh .hxx .m .mm .cs .java .kt .kts .scala .sc .groovy .gradle
.go .rs .swift .dart .py .pyi .pyx .pxd .rb .php .pl .pm .lua .r .jl .ex .exs .erl .hrl
.hs .ml .mli .fs .fsx .clj .cljs .elm .nim .zig .v .sol .js .mjs .cjs .jsx .ts .tsx
.vue .svelte .css .scss .sass .less .html .htm .xml .xsl .svg .json .jsonc .json5 .yaml
.yml .toml .ini .cfg .conf .env .properties .sql .graphql .gql .proto .thrift .tf .hcl
.sh .bash .zsh .fish .ps1 .psm1 .bat .cmd .mk .cmake .make .dockerfile .nix .vim .el
.lisp .scm .rkt .asm .s .f90 .f .cob .ada .adb .pas .d .cr .tcl .awk .sed .ipynb
""".split())

#: Extensionless (or specially named) files treated as code.
CODE_FILENAMES = frozenset("""
Dockerfile Containerfile Makefile GNUmakefile makefile Rakefile Gemfile Podfile Jenkinsfile
Vagrantfile Procfile Brewfile Justfile justfile Tiltfile CMakeLists.txt BUILD WORKSPACE
BUILD.bazel WORKSPACE.bazel Caddyfile .bashrc .zshrc .profile .gitignore .dockerignore
.editorconfig
""".split())


def is_code_path(path: str | os.PathLike[str]) -> bool:
    """True when ``path`` names a source or config file by its extension or name."""
    name = os.path.basename(os.fspath(path))
    if name in CODE_FILENAMES or name.startswith("Dockerfile."):
        return True
    return os.path.splitext(name)[1].lower() in CODE_EXTENSIONS


def normalize_quotes(text: str, path: str | os.PathLike[str] | None = None) -> str:
    """Replace curly quotes, primes and guillemets with their ASCII forms.

    With a ``path``, only code files are changed (prose keeps its
    typography); with no path the text is taken as code.
    """
    if path is not None and not is_code_path(path):
        return text
    return text.translate(CURLY_TO_ASCII)
