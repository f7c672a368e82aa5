"""The set-up scripts and the conftest rules for slow and browser tests."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SCRIPTS = ("scripts/app", "scripts/test", ".ci/run")


@pytest.mark.parametrize("script", SCRIPTS)
def test_script_is_executable_bash(script: str) -> None:
    path = ROOT / script
    assert os.access(path, os.X_OK), f"{script} is not executable"
    subprocess.run(["bash", "-n", str(path)], check=True)


def test_ci_runs_exactly_the_readme_test_command() -> None:
    commands = [
        line
        for line in (ROOT / ".ci/run").read_text().splitlines()
        if line.strip() and not line.lstrip().startswith("#")
    ]
    assert commands[-1].split() in (["scripts/test"], ["exec", "scripts/test"])
    assert "set -euo pipefail" in commands


FAKE_PYTHON = """#!/usr/bin/env bash
# Stands in for .venv/bin/python: records pip installs, succeeds at everything else.
if [[ "$1 $2 $3" == "-m pip install" ]]; then echo install >>"$(dirname "$0")/../installs"; fi
"""


def _bootstrap(repo: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        ["bash", "-c", "set -euo pipefail; source scripts/_bootstrap.sh; bootstrap_venv"],
        cwd=repo,
        capture_output=True,
        text=True,
        check=True,
    )


def test_bootstrap_installs_again_only_when_pyproject_changes(tmp_path: Path) -> None:
    (tmp_path / "scripts").mkdir()
    shutil.copy(ROOT / "scripts/_bootstrap.sh", tmp_path / "scripts")
    pyproject = tmp_path / "pyproject.toml"
    pyproject.write_text('[project]\nname = "x"\n')
    python = tmp_path / ".venv/bin/python"
    python.parent.mkdir(parents=True)
    python.write_text(FAKE_PYTHON)
    python.chmod(0o755)
    installs = tmp_path / ".venv/installs"

    _bootstrap(tmp_path)
    _bootstrap(tmp_path)
    assert installs.read_text().split() == ["install"]

    pyproject.write_text('[project]\nname = "x"\nversion = "2"\n')
    _bootstrap(tmp_path)
    _bootstrap(tmp_path)
    assert installs.read_text().split() == ["install", "install"]


SAMPLE_TESTS = """
import pytest

def test_plain():
    pass

@pytest.mark.slow
def test_slow():
    pass

@pytest.mark.browser
def test_browser():
    pass
"""

INI = """[pytest]
addopts = -ra --strict-markers
markers =
    browser: real browser
    slow: long-running
"""


def _run_sample(tmp_path: Path, *args: str, ci: bool) -> subprocess.CompletedProcess[str]:
    shutil.copy(ROOT / "tests/conftest.py", tmp_path / "conftest.py")
    (tmp_path / "pytest.ini").write_text(INI)
    (tmp_path / "test_sample.py").write_text(SAMPLE_TESTS)
    env = {k: v for k, v in os.environ.items() if k != "CI"}
    env["CHROMIUM_EXECUTABLE"] = str(tmp_path / "no-such-chromium")
    env["PYTEST_DISABLE_PLUGIN_AUTOLOAD"] = "1"  # hypothesis and friends only slow the start
    if ci:
        env["CI"] = "true"
    return subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", *args],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )


def test_slow_and_browser_tests_skip_by_default(tmp_path: Path) -> None:
    run = _run_sample(tmp_path, ci=False)
    assert run.returncode == 0, run.stdout
    assert "1 passed, 2 skipped" in run.stdout
    assert "slow: run with --runslow" in run.stdout
    assert "no-such-chromium" in run.stdout


def test_runslow_runs_slow_tests(tmp_path: Path) -> None:
    run = _run_sample(tmp_path, "--runslow", ci=False)
    assert run.returncode == 0, run.stdout
    assert "2 passed, 1 skipped" in run.stdout


def test_missing_browser_fails_under_ci(tmp_path: Path) -> None:
    run = _run_sample(tmp_path, ci=True)
    assert run.returncode == 1, run.stdout
    assert "1 passed, 1 skipped, 1 error" in run.stdout
    assert "cannot run under CI=true" in run.stdout
