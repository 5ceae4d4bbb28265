import EZTestSupport
import Foundation
import XCTest

/// The executable leaves libc and zlib to the system: it defines none of their symbols, which,
/// exported, would replace the system's for every library in the process. And it does not link
/// libcurl, which only `deliver` loads.
final class SystemSymbolTests: XCTestCase {
    /// The standard output of `tool arguments…` (binutils), which must succeed.
    private func output(of tool: String, _ arguments: [String]) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [tool] + arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let output = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 0, "\(tool) failed on \(arguments)")
        return String(decoding: output, as: UTF8.self)
    }

    /// The names of the dynamic symbols `binary` defines (`nm -D --defined-only`), or imports.
    private func dynamicSymbols(_ binary: String, defined: Bool = true) throws -> [String] {
        try output(of: "nm", ["-D", defined ? "--defined-only" : "--undefined-only", binary]).split(separator: "\n").compactMap {
            $0.split(separator: " ").last.map(String.init)
        }
    }

    /// The builds to check: the tests' and, when it exists, the release build.
    private func binaries() throws -> [String] {
        var binaries = [try CLI.executable()]
        let release = CLI.packageRoot.appendingPathComponent(".build/release/ezreport").path
        if FileManager.default.isExecutableFile(atPath: release) { binaries.append(release) }
        return binaries
    }

    func testTheExecutableDefinesNoPrintfDeflateOrInflateSymbol() throws {
        for binary in try binaries() {
            // nm reads the table: the executable imports Cairo's and SQLite's functions from it.
            let imports = try dynamicSymbols(binary, defined: false)
            XCTAssertTrue(imports.contains("cairo_create") && imports.contains("sqlite3_open_v2"),
                          "nm did not read \(binary)'s dynamic symbols: the check would prove nothing")
            let overrides = try dynamicSymbols(binary).filter {
                $0.range(of: #"^(__)?v?[sfd]?n?printf(_chk)?$|^deflate|^inflate"#, options: .regularExpression) != nil
            }
            XCTAssertEqual(overrides, [], "\(binary) defines system-library symbols")
        }
    }

    /// Swift's static standard library links executables with -export-dynamic, which exported the
    /// ~55,000 public symbols of the package's modules: any of them named like a system library's
    /// would have replaced it for the whole process. The version script (Sources/ezreport/
    /// exports.map) leaves `main` at most.
    func testTheExecutableExportsNothingButMain() throws {
        for binary in try binaries() {
            let exported = try dynamicSymbols(binary)
            XCTAssertTrue(Set(exported).isSubset(of: ["main"]), "\(binary) exports \(exported.count) symbols: \(exported.prefix(5))")
        }
    }

    /// The shared libraries `binary` names as needed (`readelf -d`).
    private func neededLibraries(_ binary: String) throws -> [String] {
        try output(of: "readelf", ["-d", binary]).split(separator: "\n").filter { $0.contains("(NEEDED)") }.compactMap { line in
            line.split(separator: "[").last?.split(separator: "]").first.map(String.init)
        }
    }

    func testTheExecutableLinksNeitherLibcurlNorLibqpdfTheyAreLoadedWhenNeeded() throws {
        // Linked, libcurl and the 16 libraries it brings, and libqpdf with its TLS stack, were
        // bound at the start of every command.
        let needed = try neededLibraries(try CLI.executable())
        XCTAssertTrue(needed.contains { $0.hasPrefix("libcairo") }, "the check reads the needed libraries: \(needed)")
        XCTAssertFalse(needed.contains { $0.hasPrefix("libcurl") }, "\(needed)")
        XCTAssertFalse(needed.contains { $0.hasPrefix("libqpdf") }, "\(needed)")
    }
}
