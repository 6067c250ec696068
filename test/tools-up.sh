#!/usr/bin/env bash
# The archive tests cross-check our COG reader and writer against GDAL (python3-gdal); install it where it is missing.
set -uo pipefail
# Debian's python3-gdal lives under /usr/bin/python3, which a pyenv or venv python3 on PATH does not see.
has_gdal() { for py in /usr/bin/python3 python3; do "$py" -c 'from osgeo import gdal; import numpy' >/dev/null 2>&1 && return 0; done; return 1; }
if has_gdal && command -v gdal_translate >/dev/null 2>&1; then exit 0; fi
if command -v apt-get >/dev/null 2>&1 && [ "$(id -u)" = 0 ]; then
  echo "installing GDAL for the archive cross-checks (python3-gdal, gdal-bin)" >&2
  DEBIAN_FRONTEND=noninteractive apt-get install -y -q python3-gdal python3-numpy gdal-bin >/dev/null 2>&1 \
    || { apt-get update -q >/dev/null 2>&1 && DEBIAN_FRONTEND=noninteractive apt-get install -y -q python3-gdal python3-numpy gdal-bin >/dev/null; }
fi
has_gdal || { echo "GDAL for python3 is missing: apt-get install python3-gdal gdal-bin" >&2; exit 1; }
