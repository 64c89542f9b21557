#!/usr/bin/env bash
# Builds the one-folder bundle dist/SimSift/ (simsift-gui + simsift) from a clean checkout.
#   packaging/build.sh            venv in build/venv (reused if present), then PyInstaller
#   SIMSIFT_PYTHON=python3.11 packaging/build.sh   pick the interpreter the bundle is made from
#   SIMSIFT_BUNDLE_OCR=0 packaging/build.sh        without Tesseract (no OCR unless the user has it)
# The bundle carries the build machine's Tesseract, its libraries and the eng, chi_sim, chi_tra
# and osd data (packaging/system-deps.sh installs them); the build stops if they are missing.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
python=${SIMSIFT_PYTHON:-python3}
venv=$root/build/venv
export PIP_PROGRESS_BAR=off PIP_DISABLE_PIP_VERSION_CHECK=1
start=$(date +%s)

# A venv of its own: the bundle must contain exactly the project's dependencies, nothing from
# the developer's site-packages (PyInstaller would pull in whatever it can import).
if [[ ! -x $venv/bin/python ]]; then
  "$python" -m venv "$venv"
fi
# Non-editable install: PyInstaller follows real files, not setuptools' editable finder hooks.
"$venv/bin/python" -m pip install -q "$root" "pyinstaller>=6.6,<7"

"$venv/bin/python" -m PyInstaller --noconfirm --clean \
  --distpath "$root/dist" --workpath "$root/build/pyinstaller" \
  "$root/packaging/simsift.spec"

# A self-built interpreter (pyenv, python-build-standalone) may ship with debug info: 23 MB of
# libpython alone. Strip only the interpreter's files; patched wheel libraries must stay intact.
if [[ $(uname -s) == Linux ]] && command -v strip >/dev/null; then
  strip --strip-debug "$root"/dist/SimSift/_internal/libpython3*.so* \
    "$root"/dist/SimSift/_internal/python3*/lib-dynload/*.so
fi

ocr=$root/dist/SimSift/_internal/tesseract
if [[ -d $ocr ]]; then
  echo "Tesseract: $ocr ($(du -sh "$ocr" | cut -f1) program and data, libraries in _internal/)"
fi
echo "Bundle: $root/dist/SimSift ($(du -sh "$root/dist/SimSift" | cut -f1)), built in $(( $(date +%s) - start )) s"
