# Shared by scripts/narrate and scripts/test (sourced, not run): installs the
# Debian packages narrate needs when any is missing, then configures and builds
# build/ (Release). Quiet when everything is already there.

NARRATE_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
NARRATE_PACKAGES=(
  g++ make cmake pkg-config
  libicu-dev libespeak-ng-dev espeak-ng-data espeak-ng
  libsndfile1-dev libsoxr-dev libebur128-dev libtag1-dev libzip-dev
  portaudio19-dev
  libtomlplusplus-dev nlohmann-json3-dev libcli11-dev
  libgtest-dev epubcheck clang-format
)

narrate_install_packages() {
  local missing=()
  for p in "${NARRATE_PACKAGES[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" || missing+=("$p")
  done
  [ ${#missing[@]} -eq 0 ] && return 0
  echo "Installing system packages: ${missing[*]}" >&2
  local sudo=""
  [ "$(id -u)" -ne 0 ] && sudo="sudo"
  $sudo env DEBIAN_FRONTEND=noninteractive apt-get update -qq >&2 &&
    $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
      "${missing[@]}" >/dev/null ||
    { echo "narrate: could not install ${missing[*]} with apt-get" >&2; return 1; }
}

narrate_build() {
  local build="$NARRATE_ROOT/build"
  if [ ! -f "$build/CMakeCache.txt" ]; then
    cmake -S "$NARRATE_ROOT" -B "$build" -DCMAKE_BUILD_TYPE=Release >"$build.configure.log" 2>&1 ||
      { cat "$build.configure.log" >&2; return 1; }
    rm -f "$build.configure.log"
  fi
  local log
  log=$(cmake --build "$build" -j"$(nproc)" "$@" 2>&1) || { echo "$log" >&2; return 1; }
}
