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

    /// The names of the dynamic symbols `binary` defines (`nm -D --defined-only`).
    private func definedDynamicSymbols(_ binary: String) throws -> [String] {
        try output(of: "nm", ["-D", "--defined-only", binary]).split(separator: "\n").compactMap {
            $0.split(separator: " ").last.map(String.init)
        }
    }

    func testTheExecutableDefinesNoPrintfDeflateOrInflateSymbol() throws {
        var binaries = [try CLI.executable()]
        let release = CLI.packageRoot.appendingPathComponent(".build/release/ezreport").path
        if FileManager.default.isExecutableFile(atPath: release) { binaries.append(release) }
        for binary in binaries {
            let symbols = try definedDynamicSymbols(binary)
            XCTAssertFalse(symbols.isEmpty, "nm listed no symbol at all for \(binary): the check would prove nothing")
            let overrides = symbols.filter {
                $0.range(of: #"^(__)?v?[sfd]?n?printf(_chk)?$|^deflate|^inflate"#, options: .regularExpression) != nil
            }
            XCTAssertEqual(overrides, [], "\(binary) defines system-library symbols")
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
