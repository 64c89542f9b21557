#!/bin/sh
# Refresh the Chinese UI translation: collect strings, fill them, compile the .qm Qt loads.
set -e
cd "$(dirname "$0")/../.."
pyside6-lupdate app/*.py app/*/*.py -ts resources/translations/simsift_zh_CN.ts -no-obsolete
python resources/translations/fill_zh_CN.py resources/translations/simsift_zh_CN.ts
pyside6-lrelease resources/translations/simsift_zh_CN.ts -qm resources/translations/simsift_zh_CN.qm
