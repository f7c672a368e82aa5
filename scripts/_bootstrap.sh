# shellcheck shell=bash
# Shared set-up for scripts/app and scripts/test; sourced, never run.
#
# bootstrap_venv: make sure ./.venv exists, runs Python 3.11+, and has this project
#   installed with `pip install -e '.[dev]'`. The install is redone only when
#   pyproject.toml changed: its SHA-256 is kept in .venv/.pyproject.sha256.
# ensure_postgresql: the same for Debian's postgresql (the PostgreSQL store tests).
# ensure_chromium: install Debian's `chromium` for the browser tests when it is missing
#   and we are root with apt-get; otherwise (or offline) say so and carry on. Also Debian's
#   `fonts-noto-cjk`, so the Japanese screens show real characters.
#
# Environment: PYTHON picks the interpreter that creates the venv (default: the first
# of python3, python3.13, python3.12, python3.11 that is 3.11 or newer).

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
VENV="$ROOT/.venv"
STAMP="$VENV/.pyproject.sha256"
export PIP_DISABLE_PIP_VERSION_CHECK=1 PIP_NO_INPUT=1

say() { printf '%s\n' "$*" >&2; }

_python_ok() {  # $1: an interpreter; true when it exists and is 3.11+
    "$1" -c 'import sys; sys.exit(sys.version_info < (3, 11))' >/dev/null 2>&1
}

_find_python() {
    local candidate
    for candidate in ${PYTHON:-} python3 python3.13 python3.12 python3.11; do
        if _python_ok "$candidate"; then
            printf '%s\n' "$candidate"
            return 0
        fi
    done
    say "error: Python 3.11 or newer is needed (tried: ${PYTHON:-} python3 python3.13 python3.12 python3.11)"
    return 1
}

_venv_healthy() {
    _python_ok "$VENV/bin/python" && "$VENV/bin/python" -m pip --version >/dev/null 2>&1
}

_create_venv() {
    local python version
    python="$(_find_python)" || return 1
    rm -rf "$VENV"
    say "bootstrap: creating .venv with $("$python" --version 2>&1)"
    if "$python" -m venv "$VENV" >/dev/null 2>&1; then
        return 0
    fi
    # Debian ships venv's pip bootstrap separately, in pythonX.Y-venv.
    version="$("$python" -c 'import sys; print(f"{sys.version_info[0]}.{sys.version_info[1]}")')"
    if [[ $EUID -eq 0 ]] && command -v apt-get >/dev/null; then
        say "bootstrap: installing python${version}-venv with apt-get"
        _apt_update && _apt_install "python${version}-venv" || true
        rm -rf "$VENV"
        "$python" -m venv "$VENV" && return 0
    fi
    say "error: '$python -m venv' failed; on Debian run: apt-get install python${version}-venv"
    return 1
}

bootstrap_venv() {
    local status=0
    # One bootstrap at a time (scripts/app and scripts/test may start together): lock
    # pyproject.toml itself, which every run reads and none deletes.
    exec 9<"$ROOT/pyproject.toml"
    if command -v flock >/dev/null; then flock 9; fi
    _bootstrap_locked || status=$?
    exec 9<&-
    export PATH="$VENV/bin:$PATH"
    return "$status"
}

_bootstrap_locked() {
    local want
    _venv_healthy || _create_venv || return 1
    want="$(sha256sum "$ROOT/pyproject.toml" | cut -d' ' -f1)"
    if [[ -f $STAMP && "$(cat "$STAMP")" == "$want" ]]; then
        return 0
    fi
    say "bootstrap: installing the project with its dev tools into .venv (new or changed pyproject.toml)"
    "$VENV/bin/python" -m pip install -qq --editable "$ROOT[dev]" || return 1
    printf '%s\n' "$want" >"$STAMP.tmp" && mv "$STAMP.tmp" "$STAMP"
}

_APT_UPDATED=""
_apt_update() {
    [[ -n $_APT_UPDATED ]] && return 0
    DEBIAN_FRONTEND=noninteractive apt-get update -qq </dev/null >/dev/null 2>&1 && _APT_UPDATED=1
}

_apt_install() {
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
        -o DPkg::Lock::Timeout=120 "$@" </dev/null >/dev/null 2>&1
}

ensure_chromium() {
    if command -v chromium >/dev/null || [[ -x /usr/bin/chromium ]]; then
        _ensure_cjk_font
        return 0
    fi
    if [[ $EUID -ne 0 ]] || ! command -v apt-get >/dev/null; then
        say "note: chromium is not installed and cannot be here (needs root and apt-get);" \
            "browser tests will skip (or fail under CI=true)"
        return 0
    fi
    say "bootstrap: installing Debian's chromium for the browser tests"
    if ! { _apt_update && _apt_install chromium; }; then
        say "warning: could not install chromium (offline?); browser tests will skip (or fail under CI=true)"
    fi
    _ensure_cjk_font
    return 0
}

# The Japanese screens need a CJK font that Chromium can use: Debian's fonts-noto-cjk.
_ensure_cjk_font() {
    if dpkg -s fonts-noto-cjk >/dev/null 2>&1 || [[ $EUID -ne 0 ]] || ! command -v apt-get >/dev/null; then
        return 0
    fi
    say "bootstrap: installing Debian's fonts-noto-cjk for the Japanese browser test"
    { _apt_update && _apt_install fonts-noto-cjk; } ||
        say "warning: could not install fonts-noto-cjk; Japanese text will show as boxes"
    return 0
}

# ensure_postgresql: install Debian's `postgresql` for the PostgreSQL store tests when its
#   server binaries are missing and we are root with apt-get; otherwise say so and carry on
#   (those tests then skip, or fail under CI=true). The tests start a private server of their
#   own (tests/pgserver.py); the package's own cluster is neither needed nor touched.
_have_postgresql() {
    compgen -G "/usr/lib/postgresql/*/bin/initdb" >/dev/null || command -v initdb >/dev/null
}

ensure_postgresql() {
    if _have_postgresql; then
        return 0
    fi
    if [[ $EUID -ne 0 ]] || ! command -v apt-get >/dev/null; then
        say "note: PostgreSQL is not installed and cannot be here (needs root and apt-get);" \
            "its store tests will skip (or fail under CI=true)"
        return 0
    fi
    say "bootstrap: installing Debian's postgresql for the store tests"
    if ! { _apt_update && _apt_install postgresql; } || ! _have_postgresql; then
        say "warning: could not install postgresql (offline?); its tests will skip (or fail under CI=true)"
    fi
    return 0
}
