// swift-tools-version:6.0
//
// cravey — short audio/video messages to your future self, recorded and played from the shell.
//
// The targets follow the floors of DEVELOPERS.md, bottom up; a target depends only on floors below:
//   3. CraveyLibrary — the private recordings library (GRDB store + atomic file store + recovery)
//   4. cravey        — the command-line executable
// Tests mirror the modules; `library-driver` is a tiny test-only executable that drives library
// operations in a child process so the tests can SIGKILL it at chosen points.
import PackageDescription

let package = Package(
    name: "cravey",
    platforms: [.macOS(.v13)],
    products: [
        .executable(name: "cravey", targets: ["cravey"]),
    ],
    dependencies: [
        .package(url: "https://github.com/groue/GRDB.swift", exact: "7.10.0"),
        .package(url: "https://github.com/apple/swift-argument-parser", exact: "1.8.2"),
    ],
    targets: [
        .target(
            name: "CraveyLibrary",
            dependencies: [.product(name: "GRDB", package: "GRDB.swift")]
        ),
        .executableTarget(
            name: "cravey",
            dependencies: [
                "CraveyLibrary",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .executableTarget(
            name: "library-driver",
            dependencies: ["CraveyLibrary"],
            path: "Tests/LibraryDriver"
        ),
        .target(name: "CraveyTestSupport", path: "Tests/CraveyTestSupport"),
        .testTarget(
            name: "CraveyLibraryTests",
            dependencies: ["CraveyLibrary", "CraveyTestSupport", "library-driver"]
        ),
        .testTarget(
            name: "CraveyTests",
            dependencies: ["CraveyLibrary", "CraveyTestSupport", "cravey"]
        ),
    ]
)
