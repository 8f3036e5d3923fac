#!/usr/bin/env bash
# How often the quick-presses machine fails while two CPU burners load the machine: the way
# the lost-element bugs of Streamlit's message queue were found and their fixes checked
# (bench/RESULTS.md, "Quick presses under load"). Each run is a fresh server and three
# examples of tests/e2e/test_quick_presses_browser.py's machine with its own seed.
#
#   bash bench/quick_presses_under_load.sh [runs]     (default 10; about a minute a run)
set -u
cd "$(dirname "$0")/.."
runs=${1:-10}
python -c "while True: pass" & burner1=$!
python -c "while True: pass" & burner2=$!
trap 'kill $burner1 $burner2 2>/dev/null' EXIT
failed=0
for seed in $(seq 1 "$runs"); do
  if TESTS_PROFILE=thorough python -m pytest -q -x -p no:cacheprovider -o addopts="" \
      --hypothesis-seed="$seed" \
      "tests/e2e/test_quick_presses_browser.py::test_quick_presses_and_an_edit_at_once_leave_slider_link_and_numbers_agreeing" \
      > "/tmp/quick_presses_$seed.log" 2>&1; then
    echo "seed $seed: passed"
  else
    failed=$((failed + 1))
    echo "seed $seed: FAILED (/tmp/quick_presses_$seed.log)"
  fi
done
echo "$failed of $runs runs failed"
