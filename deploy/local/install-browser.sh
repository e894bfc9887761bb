#!/usr/bin/env bash
# Installs the headless browser the console's browser test drives: Debian's chromium and its chromedriver, and the
# CJK font (Noto Sans CJK) without which Chinese text renders as boxes in the console's screenshots and in Chromium.
# Nothing downloads a browser at run time; this script is the one place that installs it (.ci/run calls it).
set -euo pipefail
if command -v chromium >/dev/null 2>&1 && command -v chromedriver >/dev/null 2>&1 \
    && dpkg-query -W -f='${Status}' fonts-noto-cjk 2>/dev/null | grep -q 'install ok installed'; then
  exit 0
fi
SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
$SUDO apt-get update -q
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -q chromium chromium-driver fonts-noto-cjk
