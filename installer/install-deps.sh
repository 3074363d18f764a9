#!/usr/bin/env bash
# Installs the system packages Sandbox Studio needs to build, run and test, and only
# those that are missing. Debian/Ubuntu (apt-get); prints the equivalent for others.
# Usage: installer/install-deps.sh [build|test]
set -euo pipefail

mode=${1:-build}

build_packages=(
    build-essential cmake ninja-build ccache pkg-config git clang-format
    qt6-base-dev qt6-base-dev-tools qt6-tools-dev qt6-tools-dev-tools qt6-l10n-tools
    qt6-qpa-plugins libgl-dev
    qtkeychain-qt6-dev libseccomp-dev libssl-dev libncurses-dev
    dbus dbus-bin dbus-x11 gnome-keyring
)
test_packages=(
    xvfb xauth x11-utils trayer
    bubblewrap curl openssl python3 iproute2 util-linux
    # tests/keyring-lock.py locks and unlocks the test session's keyring over D-Bus.
    python3-dbus
    clang libclang-rt-14-dev tmux zsh fish
    # The SSH agent tests run ssh-agent and their own sshd on loopback. On a machine with
    # systemd the server package also enables its own service on port 22; turn it off with
    # `systemctl disable --now ssh` where that is not wanted.
    openssh-client openssh-server
    # tcp:// Docker endpoints are tested through a TLS front of stunnel's before Podman. The
    # package ships a stunnel service, off until configured.
    stunnel4
    # runsc: gVisor, registered as a second OCI runtime of the tests' Podman; crun: a third.
    podman runc runsc crun busybox-static
    qemu-system-x86 linux-image-amd64 cpio slirp4netns wine64 g++-mingw-w64-x86-64-posix
    ovmf systemd-boot-efi dosfstools mtools fdisk qemu-utils
    rpm lintian desktop-file-utils appstream file
)

packages=("${build_packages[@]}")
if [ "$mode" = test ]; then
    packages+=("${test_packages[@]}")
fi

if ! command -v apt-get >/dev/null 2>&1; then
    cat >&2 <<'MSG'
This script installs packages with apt-get (Debian/Ubuntu). Elsewhere install:
  Fedora: sudo dnf install cmake ninja-build ccache gcc-c++ qt6-qtbase-devel qt6-qttools-devel \
          qtkeychain-qt6-devel libseccomp-devel openssl-devel dbus-daemon gnome-keyring \
          xorg-x11-server-Xvfb bubblewrap curl clang compiler-rt
  macOS:  brew install cmake ninja ccache qt@6 qtkeychain openssl@3
MSG
    exit 1
fi

missing=()
for p in "${packages[@]}"; do
    if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q '^install ok installed$'; then
        missing+=("$p")
    fi
done
# The local E2B's tests and the ACP SDK check run node and install the official SDKs
# (npm e2b, @agentclientprotocol/sdk) with npm; they are checked with node 20 (a node installed from
# elsewhere is kept).
if [ "$mode" = test ] && ! { command -v node && command -v npm; } >/dev/null 2>&1; then
    missing+=(nodejs npm)
fi
if [ ${#missing[@]} -eq 0 ]; then
    exit 0
fi

sudo=()
if [ "$(id -u)" -ne 0 ]; then
    if ! command -v sudo >/dev/null 2>&1; then
        echo "Missing packages: ${missing[*]}; run this as root or install sudo." >&2
        exit 1
    fi
    sudo=(sudo)
fi

echo "Installing missing packages: ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
"${sudo[@]}" apt-get update -qq
"${sudo[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"
