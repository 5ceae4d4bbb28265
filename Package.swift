// swift-tools-version:6.1
//
// ezreport — the reporting engine behind EZWallet. Linux only (Debian 12): it links Cairo, Pango,
// libxlsxwriter and zlib from the system's packages and reads /proc; it is not built for Apple
// platforms (see EZCore/Platform.swift).
//
// Targets are layered so data flows one way:
//   ledger (EZLedger) → figures (EZAnalytics) → renderers (EZCharts, EZPDF, EZXLSX, EZCSV) → files (EZBatch)
// with EZCore (money, time, the ledger model) beneath everything, EZCairo and EZPNG (drawing and
// encoding) and EZLocale (locale formats) beneath the renderers, and a thin `ezreport` executable on top.
import PackageDescription

let package = Package(
    name: "ezreport",
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
        .package(url: "https://github.com/apple/swift-nio-extras.git", from: "1.34.1"),
        .package(url: "https://github.com/vapor/jwt-kit", from: "5.8.0"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-metrics", from: "2.13.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.4.1"),
        .package(url: "https://github.com/apple/swift-crypto", from: "4.5.2"),
        // The ledger in PostgreSQL (EZPostgres).
        .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.2"),
    ],
    targets: [
        // MARK: - C libraries (system packages), one thin shim each
        .systemLibrary(
            name: "CCairo",
            pkgConfig: "pangocairo",
            providers: [.apt(["libcairo2-dev", "libpango1.0-dev", "libfontconfig-dev", "libfreetype-dev"])]
        ),
        .systemLibrary(
            name: "CXLSXWriter",
            pkgConfig: "xlsxwriter",
            providers: [.apt(["libxlsxwriter-dev"])]
        ),
        .systemLibrary(
            name: "CZlib",
            pkgConfig: "zlib",
            providers: [.apt(["zlib1g-dev"])]
        ),
        // glibc's malloc.h (malloc_trim), for the batch's memory after a large statement.
        .systemLibrary(name: "CMalloc"),

        // MARK: - Foundation: money, time, the ledger model
        .target(name: "EZCore"),
        .target(
            name: "EZLedger",
            dependencies: [
                "EZCore",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "Crypto", package: "swift-crypto"),
            ]
        ),
        .target(
            name: "EZSample",
            dependencies: ["EZCore", .product(name: "GRDB", package: "GRDB.swift")]
        ),

        // The ledger read from PostgreSQL: the same rows as EZLedger's SQLite reader, through the same rules.
        .target(
            name: "EZPostgres",
            dependencies: [
                "EZCore", "EZLedger",
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "GRDB", package: "GRDB.swift"),
            ]
        ),

        // MARK: - Figures
        .target(name: "EZAnalytics", dependencies: ["EZCore"]),

        // MARK: - Drawing, encoding and locale formats, shared by the renderers
        .target(name: "EZPNG", dependencies: ["CZlib"]),
        .target(name: "EZCairo", dependencies: ["CCairo", "EZPNG"]),
        .target(
            name: "EZLocale",
            dependencies: ["EZCore"],
            // The translations: one gettext PO file per language, read at run time (see Catalog).
            exclude: ["Resources"]
        ),

        // MARK: - Renderers
        .target(name: "EZCharts", dependencies: ["EZCore", "EZAnalytics", "EZCairo", "EZLocale"]),
        .target(
            name: "EZPDF",
            dependencies: ["EZCore", "EZAnalytics", "EZCairo", "EZLocale", "EZCharts", "CQPDF", "CZlib",
                           .product(name: "Crypto", package: "swift-crypto")]
        ),
        // dlopen and dlsym with their errors as text, for the libraries loaded at run time below.
        .target(name: "CLibraryLoader"),
        // libqpdf, loaded when the first PDF is completed (dlopen), not linked: its headers come from
        // libqpdf-dev at build time, the library from libqpdf29 at run time (see CQPDF.h).
        .target(name: "CQPDF", dependencies: ["CLibraryLoader"]),
        .target(name: "EZXLSX", dependencies: ["EZCore", "EZAnalytics", "EZLocale", "CXLSXWriter"]),
        .target(name: "EZCSV", dependencies: ["EZCore", "EZAnalytics"]),

        // MARK: - The batch engine and the command line
        .target(
            name: "EZBatch",
            dependencies: ["EZCore", "EZLedger", "EZAnalytics", "EZCairo", "EZCharts", "EZPDF", "EZXLSX", "EZCSV", "CMalloc"]
        ),
        // MARK: - Delivery: statements e-mailed through libcurl (reads what monthly wrote, renders nothing)
        // libcurl, loaded by `deliver` when it first sends (dlopen), not linked: its headers come from
        // libcurl4-openssl-dev at build time, the library from libcurl4 at run time (see CCurl.h).
        .target(name: "CCurl", dependencies: ["CLibraryLoader"]),
        .target(
            name: "EZDelivery",
            dependencies: ["EZCore", "EZLedger", "EZAnalytics", "EZLocale", "EZBatch", "CCurl"]
        ),

        // MARK: - The HTTP server
        .target(
            name: "EZServer",
            dependencies: [
                "EZCore", "EZLedger", "EZAnalytics", "EZBatch", "EZCharts", "EZCSV", "EZPDF", "EZXLSX",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdAuth", package: "hummingbird-auth"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
                .product(name: "NIOHTTPTypesHTTP1", package: "swift-nio-extras"),
                .product(name: "JWTKit", package: "jwt-kit"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
            ]
        ),
        .executableTarget(
            name: "ezreport",
            dependencies: [
                "EZCore", "EZLedger", "EZPostgres", "EZSample", "EZBatch", "EZDelivery", "EZServer",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            exclude: ["exports.map"],
            // Exports `main` alone (see the file): no symbol of ours can override a system
            // library's, and the dynamic loader and the runtime's start-up scan a table of 1, not ~55,000.
            linkerSettings: [.unsafeFlags(["-Xlinker", "--version-script=\(Context.packageDirectory)/Sources/ezreport/exports.map"])]
        ),
        .executableTarget(
            name: "EZBench",
            dependencies: [
                "EZCore", "EZLedger", "EZSample", "EZAnalytics", "EZBatch",
                "EZCairo", "EZPNG", "EZCharts", "EZPDF", "EZXLSX", "EZCSV",
                .product(name: "GRDB", package: "GRDB.swift"),
            ],
            path: "Sources/EZBench"
        ),

        // MARK: - Test support
        .target(
            name: "EZTestSupport",
            dependencies: ["EZCore", "EZLedger", "EZSample", "EZBatch", .product(name: "GRDB", package: "GRDB.swift")],
            path: "Tests/EZTestSupport"
        ),
        .target(
            name: "EZRenderingTestSupport",
            dependencies: ["EZCore", "EZAnalytics", "CCairo", "CZlib"],
            path: "Tests/EZRenderingTestSupport"
        ),

        // MARK: - Tests, one target per source target
        .testTarget(name: "EZCoreTests", dependencies: ["EZCore"]),
        .testTarget(
            name: "EZLedgerTests",
            dependencies: ["EZCore", "EZLedger", "EZSample", "EZTestSupport", .product(name: "GRDB", package: "GRDB.swift")]
        ),
        .testTarget(
            name: "EZPostgresTests",
            dependencies: ["EZCore", "EZLedger", "EZPostgres", "EZSample", "EZBatch", "EZTestSupport",
                           .product(name: "GRDB", package: "GRDB.swift")]
        ),
        .testTarget(name: "EZAnalyticsTests", dependencies: ["EZCore", "EZAnalytics", "EZLedger", "EZTestSupport"]),
        .testTarget(name: "EZPNGTests", dependencies: ["EZPNG", "EZCairo", "EZCharts", "EZRenderingTestSupport", "CCairo", "CZlib"]),
        .testTarget(name: "EZCairoTests", dependencies: ["EZCairo", "EZCharts", "EZRenderingTestSupport", "CCairo"]),
        .testTarget(name: "EZLocaleTests", dependencies: ["EZCore", "EZLocale"]),
        .testTarget(name: "EZChartsTests", dependencies: ["EZCore", "EZAnalytics", "EZCairo", "EZCharts", "EZRenderingTestSupport"]),
        .testTarget(name: "EZPDFTests", dependencies: ["EZCore", "EZAnalytics", "EZCharts", "EZPDF", "EZLocale", "EZRenderingTestSupport"]),
        .testTarget(name: "EZXLSXTests", dependencies: ["EZCore", "EZAnalytics", "EZXLSX", "EZLocale", "EZRenderingTestSupport"]),
        .testTarget(name: "EZCSVTests", dependencies: ["EZCore", "EZAnalytics", "EZCSV", "EZRenderingTestSupport"]),
        .testTarget(
            name: "EZBatchTests",
            dependencies: [
                "EZCore", "EZLedger", "EZSample", "EZBatch", "EZTestSupport", "CCairo",
                .product(name: "GRDB", package: "GRDB.swift"),
            ]
        ),
        .testTarget(
            name: "CommandLineTests",
            dependencies: ["ezreport", "EZBatch", "EZSample", "EZTestSupport", .product(name: "GRDB", package: "GRDB.swift")],
            exclude: ["Golden"]
        ),
        .testTarget(
            name: "EZDeliveryTests",
            dependencies: [
                "EZCore", "EZLedger", "EZLocale", "EZBatch", "EZDelivery", "EZTestSupport",
                .product(name: "GRDB", package: "GRDB.swift"),
            ],
            exclude: ["Support"]
        ),
        .testTarget(
            name: "EZServerTests",
            dependencies: [
                "EZCore", "EZLedger", "EZSample", "EZBatch", "EZServer", "EZPostgres", "EZTestSupport",
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "JWTKit", package: "jwt-kit"),
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "Crypto", package: "swift-crypto"),
            ]
        ),
    ]
)
