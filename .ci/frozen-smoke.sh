#!/usr/bin/env bash
# Smoke test of the frozen bundle (build it first with packaging/build.sh):
#   .ci/frozen-smoke.sh [BUNDLE_DIR]      default: dist/SimSift
# Runs the bundle with a bare environment (no venv, no PYTHON*, PATH=/usr/bin:/bin), as a user
# without Python would: CLI --version and a 2-worker scan that must find its duplicates (a
# scanned page among them, read by the bundle's own Tesseract: no tesseract on that scan's
# PATH), then the GUI offscreen, scanning a folder, alive after 5 s, no traceback, no stray
# processes.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
bundle=$(cd "${1:-dist/SimSift}" && pwd)
[[ -x $bundle/simsift && -x $bundle/simsift-gui ]] ||
  { echo "FAIL: no bundle in $bundle (run packaging/build.sh)" >&2; exit 1; }

tmp=$(mktemp -d)
gui_pid=""
cleanup() {
  [[ -n $gui_pid ]] && kill "$gui_pid" 2>/dev/null || true
  rm -rf "$tmp"
}
trap cleanup EXIT
mkdir -p "$tmp/home" "$tmp/samples" "$tmp/nobin"
failures=0
fail() { echo "FAIL: $*" >&2; failures=$((failures + 1)); }
ok() { echo "ok: $*"; }
# HOME in tmp: settings and catalog must not touch the real user's.
# An array, not a function: `"${bare[@]}" cmd &` then gives the program's own pid in $!.
bare=(env -i PATH=/usr/bin:/bin HOME="$tmp/home" LANG=C.UTF-8)
# Child processes of PID (one per line).
children() { pgrep -P "$1" || true; }
now_ms() { date +%s%3N; }

# Every bundled library must find its dependencies in the bundle or the system. Wayland's
# client libraries come from the user's desktop and are absent on a build machine.
missing=$(cd "$bundle/_internal" && find . -name '*.so*' -type f -print0 |
  xargs -0 -n 20 env LD_LIBRARY_PATH="$bundle/_internal" ldd 2>/dev/null |
  grep 'not found' | grep -v 'libwayland-' | sort -u || true)
[[ -z $missing ]] && ok "bundled libraries resolve" || fail "unresolved libraries: $missing"

# The PDF reader's and the tokenizer's loops in C (setup.py builds them optional, so a failed
# build is silent): without them the bundle reads every PDF several times slower.
loops=$(find "$bundle/_internal" -name 'pdf_loops*.so' | head -n 1)
[[ -n $loops ]] && ok "the PDF reader's C loops are bundled (${loops#"$bundle/"})" ||
  fail "no pdf_loops in the bundle: PDFs are read by the Python twins"
tokens=$(find "$bundle/_internal" -name 'token_loops*.so' | head -n 1)
[[ -n $tokens ]] && ok "the tokenizer's C loop is bundled (${tokens#"$bundle/"})" ||
  fail "no token_loops in the bundle: tokens are found by regular expressions"

# The bundled Tesseract (core/read/extract/ocr.py runs it with these two variables): its own
# libraries come from the bundle, not the system, and it has the languages SimSift reads.
tesseract=$bundle/_internal/tesseract/tesseract
tess_env=(env -i PATH=/usr/bin:/bin LD_LIBRARY_PATH="$bundle/_internal"
          TESSDATA_PREFIX="$bundle/_internal/tesseract/tessdata")
if [[ -x $tesseract ]]; then
  linked=$("${tess_env[@]}" ldd "$tesseract" 2>&1 || true)
  if grep -q 'not found' <<<"$linked"; then
    fail "bundled tesseract: $(grep 'not found' <<<"$linked" | tr -s ' \t\n' ' ')"
  elif ! grep -E 'lib(tesseract|lept)' <<<"$linked" | grep -qvF "$bundle/_internal/"; then
    ok "bundled tesseract links the bundle's libtesseract and Leptonica"
  else
    fail "bundled tesseract uses system libraries:" \
      "$(grep -E 'lib(tesseract|lept)' <<<"$linked" | tr -s ' \t\n' ' ')"
  fi
  langs=$("${tess_env[@]}" "$tesseract" --list-langs 2>&1 | tail -n +2 | sort | tr '\n' ' ' || true)
  [[ $langs == "chi_sim chi_tra eng osd " ]] && ok "bundled tesseract languages: $langs" ||
    fail "bundled tesseract languages: '$langs' (expected chi_sim chi_tra eng osd)"
else
  fail "no Tesseract in the bundle ($tesseract)"
fi

# --version: the bundle's version is pyproject's.
want="SimSift $(sed -n 's/^version = "\(.*\)"/\1/p' pyproject.toml)"
start=$(now_ms)
got=$("${bare[@]}" "$bundle/simsift" --version 2>&1) || true
version_ms=$(($(now_ms) - start))
[[ $got == "$want" ]] && ok "simsift --version: $got (${version_ms} ms)" ||
  fail "simsift --version printed '$got', expected '$want'"

# Samples: one article in three formats, the Chinese one twice under a Chinese name, a
# simplified/traditional pair (found only if OpenCC's dictionaries are bundled), GBK HTML,
# a scanned page (packaging/smoke/scan_en.pdf: article_en.pdf as 1-bit images) and a broken
# file (must become an error record, not a crash).
extract=$root/tests/data/extract
cp "$extract"/article_en.{html,docx,pdf} "$extract"/article_zh.{html,docx} \
  "$extract/文章 副本.docx" "$extract"/repost_zh_gbk_nometa.html "$extract"/corrupt.docx \
  "$root"/packaging/smoke/zh_{simplified,traditional}.txt "$root"/packaging/smoke/scan_en.pdf \
  "$tmp/samples/"

# Scan with 2 spawn workers: each child re-runs the frozen executable, which must hand it to
# multiprocessing (freeze_support) instead of parsing `scan` arguments again. PATH is an empty
# folder: the scanned page can only be read by the bundle's own Tesseract.
start=$(now_ms)
"${bare[@]}" PATH="$tmp/nobin" "$bundle/simsift" scan "$tmp/samples" --no-catalog --workers 2 \
  --quiet --out "$tmp/out" >"$tmp/cli.out" 2>"$tmp/cli.err" &
cli_pid=$!
max_workers=0
loaded_ocr=0
while kill -0 "$cli_pid" 2>/dev/null; do
  n=0
  for c in $(children "$cli_pid"); do
    grep -qa -- '--multiprocessing-fork' /proc/"$c"/cmdline 2>/dev/null && n=$((n + 1))
    # a reader reads scanned pages with the bundle's libtesseract loaded (tesseract_api)
    grep -qF "$bundle/_internal/libtesseract" /proc/"$c"/maps 2>/dev/null && loaded_ocr=1
  done
  ((n > max_workers)) && max_workers=$n
  sleep 0.05
done
status=0
wait "$cli_pid" || status=$?
scan_ms=$(($(now_ms) - start))
# Without freeze_support a child prints argparse's usage and exits 2; the scan still "works",
# with every file reported as a crashed reader.
problems='Traceback|error:|usage:|Warning'
if [[ $status -ne 0 ]] || grep -qE "$problems" "$tmp/cli.err"; then
  fail "frozen scan failed (exit $status)"; sed 's/^/  | /' "$tmp/cli.out" "$tmp/cli.err" >&2
else
  ok "frozen scan finished in ${scan_ms} ms with up to $max_workers worker processes"
fi
((max_workers >= 1)) || fail "no spawned worker process was seen during the scan"
((loaded_ocr)) && ok "a reader loaded the bundle's libtesseract (OCR in the reader)" ||
  fail "no reader loaded the bundle's libtesseract: scanned pages went to the program"

pairs=$tmp/out/pairs.csv
expect_pair() {
  if grep -F "/$1," "$pairs" 2>/dev/null | grep -qF "/$2,"; then ok "pair $1 ~ $2"
  else fail "pairs.csv lacks $1 ~ $2"; fi
}
expect_pair article_en.docx article_en.html # docx + HTML extraction
expect_pair article_en.html article_en.pdf  # pdfminer and its data
expect_pair article_zh.docx "文章 副本.docx"  # jieba's dictionary, non-ASCII names
expect_pair zh_simplified.txt zh_traditional.txt # OpenCC's t2s dictionaries
# article_en.pdf printed and scanned (image only): read by OCR with the bundled Tesseract
expect_pair article_en.pdf scan_en.pdf
if grep -qF scan_en.pdf "$tmp/out/errors.csv" 2>/dev/null; then
  fail "scan_en.pdf: $(grep -F scan_en.pdf "$tmp/out/errors.csv")"
fi
if grep -qF corrupt.docx "$tmp/out/errors.csv" 2>/dev/null; then ok "corrupt.docx reported"
else fail "corrupt.docx missing from errors.csv"; fi
crashed=$(grep -c 'crashed' "$tmp/out/errors.csv" 2>/dev/null || true)
[[ ${crashed:-0} -eq 0 ]] && ok "no reader crashed" || fail "$crashed readers crashed (see errors.csv)"
[[ $failures -eq 0 ]] || sed 's/^/  pairs.csv | /' "$pairs" >&2 || true

# GUI offscreen, given a folder so it scans at once with its own spawned workers. A worker
# that started a second GUI would itself spawn workers: look for grandchildren.
"${bare[@]}" QT_QPA_PLATFORM=offscreen "$bundle/simsift-gui" "$tmp/samples" \
  >"$tmp/gui.out" 2>"$tmp/gui.err" &
gui_pid=$!
start=$(now_ms)
idle_ms=""
last_cpu=-1
stable=0
grandchildren=0
while (($(now_ms) - start < 5000)) && kill -0 "$gui_pid" 2>/dev/null; do
  for c in $(children "$gui_pid"); do
    # a reader may run Tesseract (OCR of the scanned page); a second GUI is the bundle
    [[ -n $(pgrep -P "$c" -f "$bundle/simsift" || true) ]] && grandchildren=1
  done
  # Start-up time: until the process first stops using CPU (window shown, event loop idle).
  if [[ -z $idle_ms ]]; then
    cpu=$(awk '{print $14 + $15}' /proc/"$gui_pid"/stat 2>/dev/null || echo -1)
    if [[ $cpu == "$last_cpu" ]]; then stable=$((stable + 1)); else stable=0; fi
    last_cpu=$cpu
    ((stable >= 3)) && idle_ms=$(($(now_ms) - start - 150))
  fi
  sleep 0.05
done
if kill -0 "$gui_pid" 2>/dev/null; then
  ok "GUI alive after 5 s offscreen (idle after ~${idle_ms:-?} ms)"
  kill "$gui_pid"
  wait "$gui_pid" 2>/dev/null || true
else
  status=0
  wait "$gui_pid" || status=$?
  fail "GUI exited within 5 s (status $status)"
fi
gui_pid=""
((grandchildren == 0)) && ok "GUI workers did not start GUIs" ||
  fail "a GUI worker spawned processes of its own (freeze_support missing?)"
if grep -qE "$problems" "$tmp/gui.err"; then
  fail "GUI stderr:"; sed 's/^/  | /' "$tmp/gui.err" >&2
else
  ok "GUI stderr clean"
fi
# Workers notice the closed pipe and exit: nothing of the bundle may outlive the app. A
# reader still starting when the app was killed (a loaded machine) exits once started.
for _ in $(seq 20); do
  leftover=$(pgrep -f "$bundle/(simsift|_internal/tesseract/)" || true)
  [[ -z $leftover ]] && break
  sleep 0.5
done
[[ -z $leftover ]] && ok "no processes left behind" || fail "processes left running: $leftover"

echo "bundle $(du -sh "$bundle" | cut -f1), --version ${version_ms} ms, scan ${scan_ms} ms"
if ((failures > 0)); then echo "frozen smoke: $failures failure(s)" >&2; exit 1; fi
echo "frozen smoke: all passed"
