import Foundation
import PackagePlugin

/// Writes `BuildInfo.swift` before every build of a target that uses it: the commit the sources
/// were built from (its short hash, `-dirty` with changes not committed; "unknown" outside a git
/// checkout), so
/// `cravey --version` names the build a problem report is about.
@main
struct BuildInfo: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        let output = context.pluginWorkDirectoryURL.appending(path: "BuildInfo.swift")
        let package = context.package.directoryURL.path
        let script = """
            commit=$(git -C '\(package)' rev-parse --short=12 HEAD 2>/dev/null) || commit=unknown
            [ "$commit" = unknown ] || git -C '\(package)' diff --quiet HEAD 2>/dev/null || commit="$commit-dirty"
            text="/// The commit this build was made from (written by the BuildInfo plugin).
            let buildCommit = \\"$commit\\""
            [ "$(cat '\(output.path)' 2>/dev/null)" = "$text" ] || printf '%s\\n' "$text" > '\(output.path)'
            """
        return [
            .prebuildCommand(
                displayName: "Build info (the commit)", executable: URL(filePath: "/bin/sh"),
                arguments: ["-c", script],
                outputFilesDirectory: context.pluginWorkDirectoryURL)
        ]
    }
}
