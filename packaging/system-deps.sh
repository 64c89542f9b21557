#!/usr/bin/env bash
# Installs the system libraries Qt needs on a bare Debian/Ubuntu machine (the PySide6 wheels
# bring Qt itself, not libGL, fontconfig or xkbcommon). Does nothing where they are present
# or where there is no apt-get (Windows, macOS, other distributions: use your package manager).
# antiword is optional for users (it reads Word 97 .doc files when found); the tests use it.
# Tesseract with English and Chinese reads scanned PDFs (OCR); without it they are errors.
# build.sh copies it, its libraries and this language data into the frozen bundle.
#   packaging/system-deps.sh          libraries for tests (offscreen Qt), antiword, Tesseract
#   packaging/system-deps.sh --gui    also the X11 libraries and CJK fonts for the real window
set -euo pipefail

packages=(libegl1 libgl1 libfontconfig1 libglib2.0-0 libxkbcommon0 libdbus-1-3 fonts-dejavu-core antiword
          tesseract-ocr tesseract-ocr-osd tesseract-ocr-eng tesseract-ocr-chi-sim tesseract-ocr-chi-tra)
if [[ "${1:-}" == "--gui" ]]; then
  packages+=(libxkbcommon-x11-0 libxcb-cursor0 libx11-xcb1 libxcb-icccm4 libxcb-keysyms1
             libxcb-image0 libxcb-randr0 libxcb-render-util0 libxcb-shape0 libxcb-xkb1
             libxcb-xinerama0 fonts-noto-cjk)
fi

command -v apt-get >/dev/null 2>&1 || exit 0
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
[[ ${#missing[@]} -eq 0 ]] && exit 0

sudo=""
[[ $(id -u) -ne 0 ]] && sudo="sudo"
echo "Installing system packages: ${missing[*]}"
$sudo apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
