import EZTestSupport
import Foundation
import XCTest

/// The executable leaves libc and zlib to the system: it defines none of their symbols, which,
/// exported, would replace the system's for every library in the process.
final class SystemSymbolTests: XCTestCase {
    /// The names of the dynamic symbols `binary` defines (`nm -D --defined-only`).
    private func definedDynamicSymbols(_ binary: String) throws -> [String] {
        let nm = Process()
        nm.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        nm.arguments = ["nm", "-D", "--defined-only", binary]
        let pipe = Pipe()
        nm.standardOutput = pipe
        try nm.run()
        let output = pipe.fileHandleForReading.readDataToEndOfFile()
        nm.waitUntilExit()
        XCTAssertEqual(nm.terminationStatus, 0, "nm failed on \(binary)")
        return String(decoding: output, as: UTF8.self).split(separator: "\n").compactMap { $0.split(separator: " ").last.map(String.init) }
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
}
