// swift-tools-version:6.1
//
// ezreport — the batch reporting engine behind EZWallet.
//
// Targets are layered so data flows one way:
//   ledger (EZLedger) → figures (EZAnalytics) → renderers (EZCharts, EZPDF, EZXLSX, EZCSV) → files (EZBatch)
// with EZCore (money, time, the ledger model) beneath everything and a thin `ezreport` executable on top.
import PackageDescription

let package = Package(
    name: "ezreport",
    platforms: [.macOS(.v13)],
    products: [
        .executable(name: "ezreport", targets: ["ezreport"]),
    ],
    dependencies: [
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        // `ezreport serve`: the HTTP server, its tokens, lifecycle, logs and metrics.
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        .package(url: "https://github.com/hummingbird-project/hummingbird-auth", from: "2.5.0"),
        .package(url: "https://github.com/apple/swift-http-types", from: "1.8.0"),
        .package(url: "https://github.com/vapor/jwt-kit", from: "5.8.0"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-metrics", from: "2.13.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.4.1"),
    ],
    targets: [
        // MARK: - C libraries (system packages)
        .systemLibrary(
            name: "CCairo",
            pkgConfig: "pangocairo",
            providers: [.apt(["libcairo2-dev", "libpango1.0-dev"])]
        ),
        .systemLibrary(
            name: "COpenSSL",
            pkgConfig: "libcrypto",
            providers: [.apt(["libssl-dev"])]
        ),
        .systemLibrary(
            name: "CXLSXWriter",
            pkgConfig: "xlsxwriter",
            providers: [.apt(["libxlsxwriter-dev"])]
        ),

        // How Cairo's PDF streams and libxlsxwriter's zip get compressed, neither having a setting:
        // the executable defines zlib's deflateInit_/deflateInit2_/deflate/deflateEnd and exports
        // them, so the dynamic linker binds those libraries' calls there: zlib level 1 for their
        // default, and libdeflate, whole-stream, for the streams they open.
        .target(
            name: "CStreamCompression",
            linkerSettings: [
                .linkedLibrary("z"),
                .linkedLibrary("deflate"),
                .linkedLibrary("dl"),
                .unsafeFlags([
                    "-Xlinker", "--export-dynamic-symbol=deflateInit_",
                    "-Xlinker", "--export-dynamic-symbol=deflateInit2_",
                    "-Xlinker", "--export-dynamic-symbol=deflate",
                    "-Xlinker", "--export-dynamic-symbol=deflateEnd",
                ]),
            ]
        ),

        // The numbers Cairo prints into a PDF: the executable defines glibc's __snprintf_chk and
        // exports it, formats the simple "%f"/"%d"-like specifications Cairo uses itself exactly
        // as glibc would (byte-identical, only faster) and hands every other call to glibc.
        .target(
            name: "CFastNumberFormat",
            linkerSettings: [
                .linkedLibrary("dl"),
                .unsafeFlags(["-Xlinker", "--export-dynamic-symbol=__snprintf_chk"]),
            ]
        ),

        // MARK: - Foundation: money, time, the ledger model
        .target(name: "EZCore"),
        .target(
            name: "EZLedger",
            dependencies: [
                "EZCore",
                "COpenSSL",
                .product(name: "GRDB", package: "GRDB.swift"),
            ]
        ),
        .target(
            name: "EZSample",
            dependencies: ["EZCore", .product(name: "GRDB", package: "GRDB.swift")]
        ),

        // MARK: - Figures
        .target(name: "EZAnalytics", dependencies: ["EZCore"]),

        // MARK: - Renderers
        .target(name: "EZCharts", dependencies: ["EZCore", "EZAnalytics", "CCairo"]),
        .target(name: "EZPDF", dependencies: ["EZCore", "EZAnalytics", "EZCharts", "CCairo"]),
        .target(name: "EZXLSX", dependencies: ["EZCore", "EZAnalytics", "CXLSXWriter"]),
        .target(name: "EZCSV", dependencies: ["EZCore", "EZAnalytics"]),

        // MARK: - The batch engine and the command line
        .target(
            name: "EZBatch",
            dependencies: [
                "EZCore", "EZLedger", "EZAnalytics", "EZCharts", "EZPDF", "EZXLSX", "EZCSV",
                "CStreamCompression", "CFastNumberFormat",
            ]
        ),

        // MARK: - The HTTP server
        .target(
            name: "EZServer",
            dependencies: [
                "EZCore", "EZLedger", "EZAnalytics", "EZBatch", "EZCharts", "EZCSV", "EZPDF", "EZXLSX",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdAuth", package: "hummingbird-auth"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "JWTKit", package: "jwt-kit"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
            ]
        ),
        .executableTarget(
            name: "ezreport",
            dependencies: [
                "EZCore", "EZLedger", "EZSample", "EZBatch", "EZServer",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .executableTarget(
            name: "EZBench",
            dependencies: [
                "EZCore", "EZLedger", "EZSample", "EZAnalytics", "EZBatch",
                "EZCharts", "EZPDF", "EZXLSX", "EZCSV",
            ],
            path: "Sources/EZBench"
        ),

        // MARK: - Tests
        .target(
            name: "EZTestSupport",
            dependencies: ["EZCore", "EZLedger", "EZSample", .product(name: "GRDB", package: "GRDB.swift")],
            path: "Tests/EZTestSupport"
        ),
        .testTarget(name: "EZCoreTests", dependencies: ["EZCore"]),
        .testTarget(
            name: "EZLedgerTests",
            dependencies: ["EZCore", "EZLedger", "EZSample", "EZTestSupport", .product(name: "GRDB", package: "GRDB.swift")]
        ),
        .testTarget(name: "EZAnalyticsTests", dependencies: ["EZCore", "EZAnalytics", "EZLedger", "EZTestSupport"]),
        .testTarget(
            name: "EZRenderingTests",
            dependencies: ["EZCore", "EZAnalytics", "EZCharts", "EZPDF", "EZXLSX", "EZCSV", "EZTestSupport", "CStreamCompression"]
        ),
        .testTarget(name: "CommandLineTests", dependencies: ["EZTestSupport"]),
        .testTarget(
            name: "EZBatchTests",
            dependencies: [
                "EZCore", "EZLedger", "EZSample", "EZBatch", "EZTestSupport", "CCairo", "CFastNumberFormat", "CStreamCompression",
                .product(name: "GRDB", package: "GRDB.swift"),
            ],
            exclude: ["Golden"]
        ),
        .testTarget(
            name: "EZServerTests",
            dependencies: [
                "EZCore", "EZLedger", "EZSample", "EZBatch", "EZServer", "EZTestSupport",
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "JWTKit", package: "jwt-kit"),
                .product(name: "GRDB", package: "GRDB.swift"),
            ]
        ),
    ]
)
