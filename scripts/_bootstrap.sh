# shellcheck shell=bash
# Shared set-up for scripts/app and scripts/test; sourced, never run.
#
# bootstrap_venv: make sure ./.venv exists, runs Python 3.11+, and has this project
#   installed with `pip install -e '.[dev]'`. The install is redone only when
#   pyproject.toml changed: its SHA-256 is kept in .venv/.pyproject.sha256.
#   With uv where it can be had (much faster), else pip.
# ensure_postgresql: the same for Debian's postgresql (the PostgreSQL store tests).
# ensure_chromium: install Debian's `chromium` for the browser tests when it is missing
#   and we are root with apt-get; otherwise (or offline) say so and carry on. Also Debian's
#   `fonts-noto-cjk`, so the Japanese screens show real characters.
# ensure_test_packages: both of the above, in one apt transaction, with Debian's gettext
#   (its `msgfmt --check` reads the message catalogs in tests/test_i18n.py).
#
# Environment: PYTHON picks the interpreter that creates the venv (default: the first
# of python3, python3.13, python3.12, python3.11 that is 3.11 or newer); CLUE_NOTEBOOK_PIP=1
# installs with pip even where uv can be had.

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
    local -a candidates=(python3 python3.13 python3.12 python3.11)
    # PYTHON whole, as one word: a path with a space (or a glob's characters) in it is one path.
    if [[ -n ${PYTHON:-} ]]; then candidates=("$PYTHON" "${candidates[@]}"); fi
    for candidate in "${candidates[@]}"; do
        if _python_ok "$candidate"; then
            printf '%s\n' "$candidate"
            return 0
        fi
    done
    say "error: Python 3.11 or newer is needed (tried: ${candidates[*]})"
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
    _install_project || return 1
    printf '%s\n' "$want" >"$STAMP.tmp" && mv "$STAMP.tmp" "$STAMP"
}

# The project and its dev tools go in with uv where uv can be had (on PATH, or installed into
# .venv by pip): it downloads and unpacks the wheels in parallel, several times faster than pip
# (docs/testing.md). uv reads none of pip's configuration, so it is handed the indexes, links
# and constraints pip is set up with here (and the system's certificates); it picks the newest
# release across them and compiles the modules to bytecode, as pip does (a test server's first
# start would otherwise compile streamlit's and pandas' modules on a test's clock). Where uv
# cannot be had or fails (offline, say), pip installs as before.
_install_project() {
    local uv
    if [[ ${CLUE_NOTEBOOK_PIP:-} != 1 ]] && uv="$(_find_uv)"; then
        local -a args=()
        mapfile -t args < <(_uv_args_from_pip_config)
        if "$uv" pip install --quiet --native-tls --compile-bytecode \
            --python "$VENV/bin/python" "${args[@]}" --editable "${ROOT}[dev]"; then
            return 0
        fi
        say "bootstrap: uv could not install the project; pip tries instead"
    fi
    "$VENV/bin/python" -m pip install -qq --editable "${ROOT}[dev]"
}

_find_uv() {  # prints the path of a working uv, installing it into .venv with pip if need be
    local uv
    for uv in "$(command -v uv || true)" "$VENV/bin/uv"; do
        if [[ -n $uv ]] && "$uv" --version >/dev/null 2>&1; then
            printf '%s\n' "$uv"
            return 0
        fi
    done
    "$VENV/bin/python" -m pip install -qq 'uv>=0.5' >/dev/null 2>&1 || return 1
    "$VENV/bin/uv" --version >/dev/null 2>&1 && printf '%s\n' "$VENV/bin/uv"
}

# `pip config list` (files and PIP_* variables) as uv's options, one a line.
_uv_args_from_pip_config() {
    local line key value item
    local -a items
    printf '%s\n' --index-strategy unsafe-best-match
    while IFS= read -r line; do
        key="${line%%=*}" value="${line#*=}"
        key="${key##*.}" value="${value#\'}" value="${value%\'}"
        case $key in
            index-url) printf '%s\n' --index-url "$value" ;;
            extra-index-url | find-links | constraint)
                # a list split at blanks, as pip splits it (read: no glob is expanded)
                read -r -a items <<<"$value"
                for item in "${items[@]}"; do printf '%s\n' "--$key" "$item"; done ;;
        esac
    done < <("$VENV/bin/python" -m pip config list 2>/dev/null)
}

# apt-get one at a time: scripts/test installs Debian's packages beside the venv's, and the
# venv may need python3.X-venv meanwhile (apt-get update does not wait for another's lock).
# _apt_locked runs "$@" holding that lock (where flock can be had); the command itself is not
# handed the lock's descriptor.
_apt_locked() {
    (
        if command -v flock >/dev/null; then
            exec 8>>"${TMPDIR:-/tmp}/clue-notebook-apt.lock"
            flock 8
        fi
        "$@" 8>&-
    )
}

_apt_get() {
    DEBIAN_FRONTEND=noninteractive _apt_locked apt-get "$@"
}

# apt-get update once per run, succeeded or not (offline, each package's try used to update
# again): its status is kept in _APT_UPDATED, and also in the file APT_UPDATE_MARK names where
# a script sets it (scripts/test, whose job installing Debian's packages is a subshell that
# shares no variable with bootstrap_venv beside it, which may need python3.X-venv): read and
# written under the apt lock, so that the second to come takes the first's status rather than
# updating again.
_APT_UPDATED=""
_apt_update() {
    if [[ -z $_APT_UPDATED ]]; then
        _APT_UPDATED="$(_apt_locked _apt_update_unless_marked)" || true
        [[ $_APT_UPDATED =~ ^[0-9]+$ ]] || _APT_UPDATED=1  # (the lock could not be had)
    fi
    return "$_APT_UPDATED"
}

_apt_update_unless_marked() {  # under the apt lock; prints the run's update status
    local status=0
    if [[ -n ${APT_UPDATE_MARK:-} && -s $APT_UPDATE_MARK ]]; then
        cat "$APT_UPDATE_MARK"
        return 0
    fi
    DEBIAN_FRONTEND=noninteractive apt-get update -qq </dev/null >/dev/null 2>&1 || status=$?
    if [[ -n ${APT_UPDATE_MARK:-} ]]; then printf '%s\n' "$status" >"$APT_UPDATE_MARK"; fi
    printf '%s\n' "$status"
}

_apt_install() {
    _apt_get install -y -qq --no-install-recommends -o DPkg::Lock::Timeout=120 "$@" \
        </dev/null >/dev/null 2>&1
}

# ensure_test_packages: ensure_chromium and ensure_postgresql together, what is missing of
#   chromium, fonts-noto-cjk, postgresql and gettext in one apt transaction (one download,
#   one run of dpkg's triggers); then chromium and postgresql each say what is still missing,
#   and try alone (without msgfmt the catalog check skips, saying so).
ensure_test_packages() {
    local -a missing=()
    command -v chromium >/dev/null || [[ -x /usr/bin/chromium ]] || missing+=(chromium)
    dpkg -s fonts-noto-cjk >/dev/null 2>&1 || missing+=(fonts-noto-cjk)
    _have_postgresql || missing+=(postgresql)
    command -v msgfmt >/dev/null || missing+=(gettext)
    if ((${#missing[@]})) && [[ $EUID -eq 0 ]] && command -v apt-get >/dev/null; then
        say "bootstrap: installing Debian's ${missing[*]} for the browser, store and catalog tests"
        { _apt_update && _apt_install "${missing[@]}"; } || true
    fi
    ensure_chromium
    ensure_postgresql
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
