#!/usr/bin/env bash
# Type-checks Sources/CompletionKitUI on Linux against the interface stubs in this folder (see README.md).
#
#   Tests/SwiftUIStub/typecheck.sh [BIN_PATH]
#
# BIN_PATH is the package's build folder (default: `swift build --show-bin-path`); build the package first,
# the layer imports CompletionClient and the domain modules. MODULES_PATH overrides where the built Swift
# modules are read from (default: BIN_PATH/Modules). Exits non-zero on any error in the layer or the stubs.
set -euo pipefail
cd "$(dirname "$0")/../.."
root=$PWD
stub=$root/Tests/SwiftUIStub
# The order matters: AVKit's player view is built on the SwiftUI and AVFoundation stubs.
stub_modules=(SwiftUI UIKit AVFoundation AVKit Network)

bin=${1:-${BIN_PATH:-$(swift build --show-bin-path)}}
bin=$(cd "$bin" && pwd -P)
modules=${MODULES_PATH:-$bin/Modules}
# SwiftPM's build manifest (`.build/debug.yaml` for `.build/<triple>/debug`) holds the command it compiles
# CompletionKitUI with: the C modules AsyncHTTPClient and NIO pull in need their module maps and headers.
manifest=$(dirname "$(dirname "$bin")")/$(basename "$bin").yaml
[ -f "$manifest" ] || { echo "error: no build manifest at $manifest (build the package first)" >&2; exit 1; }
[ -f "$modules/CompletionClient.swiftmodule" ] || { echo "error: no CompletionClient module in $modules" >&2; exit 1; }

work=$(mktemp -d /tmp/swiftui-stub.XXXXXX)
trap 'rm -rf "$work"' EXIT

# From that command: the C flags (-Xcc …), the language mode, the package name and the -D conditions, so the
# layer is checked with exactly the settings `swift build` gives it.
python3 - "$manifest" > "$work/flags" <<'PY'
import json, sys
text = open(sys.argv[1]).read()
start = text.find('"C.CompletionKitUI-')
if start < 0:
    sys.exit("error: CompletionKitUI is not in the build manifest")
args_at = text.index("args: ", start)
args = json.loads(text[args_at + len("args: "):text.index("\n", args_at)])
for i, arg in enumerate(args):
    if arg in ("-Xcc", "-swift-version", "-package-name", "-enable-upcoming-feature", "-enable-experimental-feature"):
        print(arg)
        print(args[i + 1])
    elif arg.startswith("-D") or arg.startswith("-strict-concurrency"):
        print(arg)
PY
mapfile -t flags < "$work/flags"

swiftc=(swiftc -parse-as-library -module-cache-path "$work/cache")

echo "Building the #Preview macro plugin"
# Against the toolchain's own swift-syntax, the one the compiler loads the plugin into.
host=$(swiftc -print-target-info | python3 -c 'import json, sys; print(json.load(sys.stdin)["paths"]["runtimeResourcePath"])')/host
"${swiftc[@]}" -swift-version 6 -emit-library -module-name PreviewsMacros -I "$host" -L "$host" \
  -lSwiftSyntax -lSwiftSyntaxMacros "$stub/PreviewsMacros/PreviewMacro.swift" -o "$work/libPreviewsMacros.so"
plugin=(-load-plugin-library "$work/libPreviewsMacros.so")

echo "Building the stub modules: ${stub_modules[*]}"
for module in "${stub_modules[@]}"; do
  "${swiftc[@]}" -swift-version 6 -emit-module -module-name "$module" -I "$work" "${plugin[@]}" \
    "$stub/$module"/*.swift -emit-module-path "$work/$module.swiftmodule"
done

echo "Type-checking Sources/CompletionKitUI"
find "$root/Sources/CompletionKitUI" -name '*.swift' | sort > "$work/sources"
# The stubs come first on the include path, then the package's own modules.
"${swiftc[@]}" -typecheck -module-name CompletionKitUI "${flags[@]}" -I "$work" -I "$modules" "${plugin[@]}" \
  @"$work/sources"
echo "CompletionKitUI type-checks against the stubs ($(wc -l < "$work/sources") files)"
