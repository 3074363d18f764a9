#!/usr/bin/env bash
# A private Docker-compatible runtime for the Docker backend's tests and benchmark:
# Podman's service on its own socket, storage and configuration (nothing of the machine's
# own Podman is touched), with two small images imported from rootfs folders built here
# (no registry is reachable): busybox with its tools and the host's git (with the libraries
# it links), and busybox alone. Debian's gVisor (runsc) is registered as the OCI runtime
# "runsc" beside the default runc.
#   podman-runtime.sh start DIR [RUNTIME]
#                                 prints SANDBOX_TEST_DOCKER_SOCKET=…, SANDBOX_TEST_DOCKER_IMAGE=…
#                                 and SANDBOX_TEST_DOCKER_BARE_IMAGE=…; RUNTIME (runc unless
#                                 given) is the OCI runtime containers run under: Podman 4
#                                 ignores the runtime an API request names, so a test that
#                                 needs another runtime starts a service of its own with it
#   podman-runtime.sh stop DIR    stops the service and removes its containers and storage
set -euo pipefail
action=${1:?usage: podman-runtime.sh start|stop DIR}
dir=$(realpath -m "${2:?usage: podman-runtime.sh start|stop DIR}")
image=localhost/sandbox-test:latest
bare_image=localhost/sandbox-test-bare:latest
oci_runtime=${3:-runc}

# containers.conf facts measured on this host (DESIGN.md): crun fails on hybrid cgroups, so
# runc is the default runtime (containers.conf, below).
podman_args=(--root "$dir/storage" --runroot "$dir/run" --storage-driver vfs --cgroup-manager cgroupfs)
podman_cmd() {
    CONTAINERS_CONF="$dir/containers.conf" podman "${podman_args[@]}" "$@"
}

case "$action" in
start)
    command -v podman >/dev/null || { echo "podman-runtime: podman is not installed (installer/install-deps.sh test)" >&2; exit 1; }
    mkdir -p "$dir/rootfs/bin" "$dir/rootfs/tmp" "$dir/rootfs/etc" "$dir/rootfs/proc" "$dir/rootfs/sys" "$dir/rootfs/dev"
    cat >"$dir/containers.conf" <<CONF
[containers]
default_ulimits = []

[engine]
cgroup_manager = "cgroupfs"
runtime = "$oci_runtime"
events_logger = "file"
CONF
    # gVisor's own network stack refuses to start here ("cannot run with network enabled in
    # root network namespace"); with --network=none it keeps a loopback of its own. A runtime
    # entry takes no flags, hence the wrapper.
    if runsc=$(command -v runsc); then
        printf '#!/bin/sh\nexec %s --network=none "$@"\n' "$runsc" >"$dir/runsc"
        chmod 755 "$dir/runsc"
        printf '\n[engine.runtimes]\nrunsc = ["%s"]\n' "$dir/runsc" >>"$dir/containers.conf"
    else
        echo "podman-runtime: runsc (gVisor) is not installed (installer/install-deps.sh test); not registered" >&2
    fi
    busybox=$(command -v busybox)
    cp "$busybox" "$dir/rootfs/bin/busybox"
    for tool in $("$busybox" --list); do
        [ "$tool" = busybox ] || ln -sf busybox "$dir/rootfs/bin/$tool"
    done
    # git, so repositories can be worked on in the container.
    if git=$(command -v git); then
        cp "$git" "$dir/rootfs/bin/git"
        for lib in $(ldd "$git" | awk '$2 == "=>" && $3 ~ /^\// { print $3 } $1 ~ /^\// { print $1 }'); do
            mkdir -p "$dir/rootfs$(dirname "$lib")"
            cp -L "$lib" "$dir/rootfs$lib"
        done
    fi
    # curl and git's HTTPS helper, for the credential injection tests; OpenSSH's client
    # programs, for the SSH agent's.
    for program in "$(command -v curl || true)" /usr/lib/git-core/git-remote-https \
        "$(command -v ssh || true)" "$(command -v ssh-add || true)" "$(command -v ssh-keygen || true)"; do
        [ -x "$program" ] || continue
        mkdir -p "$dir/rootfs$(dirname "$program")"
        cp "$program" "$dir/rootfs$program"
        for lib in $(ldd "$program" | awk '$2 == "=>" && $3 ~ /^\// { print $3 } $1 ~ /^\// { print $1 }'); do
            mkdir -p "$dir/rootfs$(dirname "$lib")"
            cp -L "$lib" "$dir/rootfs$lib"
        done
    done
    echo "root:x:0:0:root:/:/bin/sh" >"$dir/rootfs/etc/passwd"
    echo "root:x:0:" >"$dir/rootfs/etc/group"
    tar -C "$dir/rootfs" -cf "$dir/rootfs.tar" .
    podman_cmd import "$dir/rootfs.tar" "$image" >"$dir/import.log" 2>&1 || { cat "$dir/import.log" >&2; exit 1; }
    # A bare image, as distroless ones are: one static program and no sleep, shell or tools.
    mkdir -p "$dir/bare/bin" "$dir/bare/etc" "$dir/bare/tmp" "$dir/bare/proc" "$dir/bare/sys" "$dir/bare/dev"
    cp "$busybox" "$dir/bare/bin/busybox"
    cp "$dir/rootfs/etc/passwd" "$dir/rootfs/etc/group" "$dir/bare/etc/"
    tar -C "$dir/bare" -cf "$dir/bare.tar" .
    podman_cmd import "$dir/bare.tar" "$bare_image" >>"$dir/import.log" 2>&1 || { cat "$dir/import.log" >&2; exit 1; }
    if [ -e "$dir/service.pid" ]; then
        echo "podman-runtime: a service already runs for $dir" >&2
        exit 1
    fi
    # Started directly (not through a function), so the recorded pid is the service's own.
    CONTAINERS_CONF="$dir/containers.conf" podman "${podman_args[@]}" system service --time=0 \
        "unix://$dir/docker.sock" >"$dir/service.log" 2>&1 &
    echo $! >"$dir/service.pid"
    for _ in $(seq 1 100); do
        [ -S "$dir/docker.sock" ] && break
        sleep 0.1
    done
    [ -S "$dir/docker.sock" ] || { echo "podman-runtime: the service did not start (see $dir/service.log)" >&2; exit 1; }
    echo "SANDBOX_TEST_DOCKER_SOCKET=$dir/docker.sock"
    echo "SANDBOX_TEST_DOCKER_IMAGE=$image"
    echo "SANDBOX_TEST_DOCKER_BARE_IMAGE=$bare_image"
    ;;
stop)
    if [ -f "$dir/service.pid" ]; then
        pid=$(cat "$dir/service.pid")
        podman_cmd rm --all --force >/dev/null 2>&1 || true
        kill "$pid" 2>/dev/null || true
        for _ in $(seq 1 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
        kill -9 "$pid" 2>/dev/null || true
        rm -f "$dir/service.pid"
    fi
    # Podman keeps a conmon per finished exec for a while (--exit-delay); those of this
    # runtime name its directory, which no other process does.
    for proc in /proc/[0-9]*; do
        if tr '\0' ' ' 2>/dev/null <"$proc/cmdline" | grep -qF -- "$dir/"; then
            kill -9 "${proc#/proc/}" 2>/dev/null || true
        fi
    done
    # Only this directory: `podman system reset` would also touch the machine's networks.
    rm -rf "$dir"
    ;;
*)
    echo "usage: podman-runtime.sh start|stop DIR" >&2
    exit 2
    ;;
esac
