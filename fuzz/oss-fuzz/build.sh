#!/bin/bash -eu
# OSS-Fuzz calls $SRC/build.sh; the project's own script does the work.
"$SRC/tagproof/fuzz/build.sh"
