#!/usr/bin/env bash
# Adds SimSift to the desktop menu of the current user (no root): the .desktop file, with Exec
# pointing at this bundle, and the icons in the hicolor theme.
#   packaging/linux/install-desktop.sh [BUNDLE_DIR]   default: dist/SimSift
#   packaging/linux/install-desktop.sh --uninstall
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
data=${XDG_DATA_HOME:-$HOME/.local/share}
sizes=(16 24 32 48 64 128 256 512)

if [[ "${1:-}" == "--uninstall" ]]; then
  rm -f "$data/applications/simsift.desktop" "$data/icons/hicolor/scalable/apps/simsift.svg"
  for s in "${sizes[@]}"; do rm -f "$data/icons/hicolor/${s}x${s}/apps/simsift.png"; done
  exit 0
fi

bundle=$(cd "${1:-$root/dist/SimSift}" && pwd)
[[ -x "$bundle/simsift-gui" ]] || { echo "no simsift-gui in $bundle: build it first" >&2; exit 1; }
icons=$bundle/_internal/resources/icons
[[ -d $icons ]] || icons=$root/resources/icons

for s in "${sizes[@]}"; do
  install -D -m 644 "$icons/simsift-$s.png" "$data/icons/hicolor/${s}x${s}/apps/simsift.png"
done
install -D -m 644 "$icons/simsift.svg" "$data/icons/hicolor/scalable/apps/simsift.svg"
# Absolute Exec: the bundle is not on PATH.
sed "s|^Exec=simsift-gui|Exec=\"$bundle/simsift-gui\"|" "$here/simsift.desktop" \
  | install -D -m 644 /dev/stdin "$data/applications/simsift.desktop"
# Menus pick up the new entry at once only after these caches are refreshed (when installed).
command -v update-desktop-database >/dev/null && update-desktop-database -q "$data/applications" || true
command -v gtk-update-icon-cache >/dev/null && gtk-update-icon-cache -q -t "$data/icons/hicolor" || true
echo "SimSift added to the menu ($data/applications/simsift.desktop)"
