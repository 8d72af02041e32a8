#!/usr/bin/env bash
# Builds the kmerge image for linux/amd64 and linux/arm64 with buildah,
# offline (the base is scratch: nothing is pulled), from the binaries in
# the release archives, and writes it as an OCI archive (a multi-platform
# index):
#
#   go run ./hack/release -out dist
#   bash hack/image/build.sh dist dist/kmerge_VERSION_image.oci.tar
#   podman load -i dist/kmerge_VERSION_image.oci.tar     # or: skopeo copy oci-archive:... docker://...
#
# Needs buildah (Debian: apt-get install buildah) and root or a user
# namespace; no daemon. The image's layers, config and manifests are
# reproducible: file times are the commit's time (the binaries' vcs.time),
# so the same release gives the same image digest. It prints the digest of
# the index and of each platform's manifest.
set -euo pipefail

# the name the archive gives the image (podman load names it so)
image=${KMERGE_IMAGE_NAME:-ghcr.io/kmerge/kmerge}

if [ $# -ne 2 ]; then
  echo "usage: $0 DIST OUT.oci.tar" >&2
  exit 2
fi
dist=$1
out=$2
here=$(cd "$(dirname "$0")" && pwd)

sums=("$dist"/kmerge_*_checksums.txt)
if [ ! -f "${sums[0]}" ] || [ ${#sums[@]} -ne 1 ]; then
  echo "$0: $dist holds no release (one kmerge_VERSION_checksums.txt)" >&2
  exit 1
fi
version=$(basename "${sums[0]}")
version=${version#kmerge_}
version=${version%_checksums.txt}

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
ctx=$work/context
mkdir -p "$ctx"
cp "$here/passwd" "$here/group" "$ctx/"
# the license and the third-party notices, from the release (the same in
# every archive), for /licenses
mkdir -p "$ctx/licenses"
first=kmerge_${version}_linux_amd64
tar -xzf "$dist/$first.tar.gz" -C "$work" "$first/LICENSE" "$first/THIRD_PARTY_NOTICES.txt"
mv "$work/$first/LICENSE" "$work/$first/THIRD_PARTY_NOTICES.txt" "$ctx/licenses/"
for arch in amd64 arm64; do
  archive=$dist/kmerge_${version}_linux_${arch}.tar.gz
  (cd "$dist" && grep " $(basename "$archive")\$" "$(basename "${sums[0]}")" | sha256sum -c --quiet -)
  mkdir -p "$ctx/linux_$arch"
  tar -xzf "$archive" -C "$work" "kmerge_${version}_linux_${arch}/kmerge"
  mv "$work/kmerge_${version}_linux_${arch}/kmerge" "$ctx/linux_$arch/kmerge"
done

# the commit and its time, from the binary's build information
setting() { go version -m "$ctx/linux_amd64/kmerge" | awk -v k="$1" '$1 == "build" && index($2, k "=") == 1 { print substr($2, length(k) + 2) }'; }
revision=$(setting vcs.revision)
epoch=$(date -u -d "$(setting vcs.time)" +%s)

buildah=(buildah --root "$work/storage" --runroot "$work/run" --storage-driver vfs)
"${buildah[@]}" manifest create kmerge-index > /dev/null
# one platform after the other, so that the index lists them in this order
for arch in amd64 arm64; do
  "${buildah[@]}" bud --quiet --isolation chroot --timestamp "$epoch" \
    --platform "linux/$arch" --manifest kmerge-index \
    --build-arg VERSION="$version" --build-arg REVISION="$revision" \
    -f "$here/Containerfile" "$ctx" > /dev/null
done
rm -f "$out"
"${buildah[@]}" manifest push --quiet --all kmerge-index "oci-archive:$out:$image:$version"

# the index's digest, read back from the archive
index=$(tar -xOf "$out" index.json | sed -n 's/.*"digest":"\(sha256:[0-9a-f]*\)".*/\1/p')
echo "kmerge image $image:$version (commit $revision) in $out: index $index"
