#!/usr/bin/env bash
# Tools the tests drive that npm does not bring, installed from Debian where missing: GDAL, which the
# archive tests cross-check our COG reader and writer against (python3-gdal), and Chromium, which the
# portal's browser tests drive.
set -uo pipefail
# Debian's python3-gdal lives under /usr/bin/python3, which a pyenv or venv python3 on PATH does not see.
has_gdal() { for py in /usr/bin/python3 python3; do "$py" -c 'from osgeo import gdal; import numpy' >/dev/null 2>&1 && return 0; done; return 1; }
has_chromium() { [ -x /usr/bin/chromium ]; }
apt_install() {
  command -v apt-get >/dev/null 2>&1 && [ "$(id -u)" = 0 ] || return 0
  DEBIAN_FRONTEND=noninteractive apt-get install -y -q "$@" >/dev/null 2>&1 \
    || { apt-get update -q >/dev/null 2>&1 && DEBIAN_FRONTEND=noninteractive apt-get install -y -q "$@" >/dev/null; }
}
if ! has_gdal || ! command -v gdal_translate >/dev/null 2>&1; then
  echo "installing GDAL for the archive cross-checks (python3-gdal, gdal-bin)" >&2
  apt_install python3-gdal python3-numpy gdal-bin
fi
if ! has_chromium; then
  echo "installing Chromium for the portal's browser tests" >&2
  apt_install chromium
fi
has_gdal || { echo "GDAL for python3 is missing: apt-get install python3-gdal gdal-bin" >&2; exit 1; }
has_chromium || { echo "Chromium is missing: apt-get install chromium" >&2; exit 1; }
