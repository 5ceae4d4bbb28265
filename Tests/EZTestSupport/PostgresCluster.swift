import Foundation

/// A throw-away PostgreSQL server for one test process: `initdb` into a temporary folder, started
/// with `pg_ctl` on 127.0.0.1 at a free port, stopped and its folder removed at the end.
///
/// The server refuses to run as root, and CI runs as root: then every server command runs as
/// `nobody` (through `setpriv`), which owns the data folder. Clients connect over TCP with a
/// password (SCRAM), so tests exercise real authentication. Debian's `postgresql` package
/// (installed by `scripts/setup.sh --test`) provides the binaries under /usr/lib/postgresql/N/bin.
///
/// ```swift
/// let cluster = try PostgresCluster.shared()
/// let url = try cluster.createDatabase("wallet")     // postgres://ezadmin@127.0.0.1:PORT/wallet
/// ```
package final class PostgresCluster: @unchecked Sendable {
    /// The superuser the tests connect as, and its password.
    package let superuser = "ezadmin"
    package let password = "ez-" + UUID().uuidString.prefix(8).lowercased()
    package let port: Int
    package let folder: String
    private let bin: String
    private var data: String { folder + "/data" }

    private static let lock = NSLock()
    nonisolated(unsafe) private static var made: PostgresCluster?

    /// The cluster of this test process, started on first use.
    package static func shared() throws -> PostgresCluster {
        lock.lock(); defer { lock.unlock() }
        if let made { return made }
        let cluster = try PostgresCluster()
        made = cluster
        atexit { PostgresCluster.made?.destroy() }
        return cluster
    }

    /// Why the cluster could not be made.
    package struct Failure: Error, CustomStringConvertible {
        package var description: String
        package init(description: String) { self.description = description }
    }

    private init() throws {
        guard let bin = Self.binaries() else {
            throw Failure(description: "PostgreSQL's server binaries are not installed (scripts/setup.sh --test installs Debian's postgresql)")
        }
        self.bin = bin
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("ezreport-pg-\(getpid())-\(UUID().uuidString.prefix(6))").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        port = try Self.freePort()
        let passwordFile = folder + "/pw"
        try Data(password.utf8).write(to: URL(fileURLWithPath: passwordFile))
        if getuid() == 0 { try run("/bin/chown", ["-R", "nobody:nogroup", folder]) }
        try server("initdb", ["-D", data, "-U", superuser, "--pwfile=" + passwordFile, "--auth-host=scram-sha-256",
                              "--auth-local=trust", "-E", "UTF8", "--locale=C.UTF-8", "--no-sync"])
        try makeCertificates()
        try start()
    }

    /// The CA that signed the server's certificate (for `sslrootcert`); the certificate names
    /// `IP:127.0.0.1` and `DNS:localhost`. The server offers TLS; the tests' URLs say
    /// `sslmode=disable` unless they test TLS.
    package var certificateAuthority: String { folder + "/tls/ca.crt" }

    private func makeCertificates() throws {
        let tls = folder + "/tls"
        try FileManager.default.createDirectory(atPath: tls, withIntermediateDirectories: true)
        let openssl = "/usr/bin/openssl"
        try run(openssl, ["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", tls + "/ca.key", "-out", tls + "/ca.crt",
                          "-days", "2", "-subj", "/CN=ezreport test CA"])
        try run(openssl, ["req", "-newkey", "rsa:2048", "-nodes", "-keyout", tls + "/server.key", "-out", tls + "/server.csr",
                          "-subj", "/CN=127.0.0.1"])
        try Data("subjectAltName=IP:127.0.0.1,DNS:localhost\n".utf8).write(to: URL(fileURLWithPath: tls + "/ext.cnf"))
        try run(openssl, ["x509", "-req", "-in", tls + "/server.csr", "-CA", tls + "/ca.crt", "-CAkey", tls + "/ca.key",
                          "-CAcreateserial", "-out", tls + "/server.crt", "-days", "2", "-extfile", tls + "/ext.cnf"])
        chmod(tls + "/server.key", 0o600)
        if getuid() == 0 { try run("/bin/chown", ["-R", "nobody:nogroup", tls]) }
    }

    /// Starts the server (again, after ``stop()``) and waits until it accepts connections.
    package func start() throws {
        try server("pg_ctl", ["-D", data, "-l", folder + "/server.log", "-w", "-t", "60", "start", "-o",
                              "-c listen_addresses=127.0.0.1 -p \(port) -k \(folder) -c fsync=off -c full_page_writes=off -c max_connections=60"
                                + " -c ssl=on -c ssl_cert_file=\(folder)/tls/server.crt -c ssl_key_file=\(folder)/tls/server.key"])
    }

    /// Stops the server at once (connections are cut, as when a server crashes or is shut down).
    package func stop() throws {
        try server("pg_ctl", ["-D", data, "-m", "immediate", "-w", "stop"])
    }

    /// Stops the server if it runs and removes its folder.
    func destroy() {
        try? stop()
        try? FileManager.default.removeItem(atPath: folder)
    }

    /// The URL of `database` for `user` (no password: tests give it through PGPASSWORD or a file).
    package func url(_ database: String, user: String? = nil) -> String {
        "postgres://\(user ?? superuser)@127.0.0.1:\(port)/\(database)?sslmode=disable"
    }

    /// Creates an empty database and returns its URL.
    package func createDatabase(_ name: String) throws -> String {
        try psql("CREATE DATABASE \(name)")
        return url(name)
    }

    /// Runs SQL with psql as the superuser over TCP and returns what it printed (unaligned, tuples only).
    @discardableResult
    package func psql(_ sql: String, database: String = "postgres") throws -> String {
        let out = try run(bin + "/psql", ["-X", "-q", "-A", "-t", "-v", "ON_ERROR_STOP=1", "-h", "127.0.0.1", "-p", "\(port)",
                                          "-U", superuser, "-d", database, "-c", sql],
                          environment: ["PGPASSWORD": password])
        return out.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    // MARK: - Processes

    /// A server program, as `nobody` when the tests run as root.
    private func server(_ program: String, _ args: [String]) throws {
        if getuid() == 0 {
            try run("/usr/bin/setpriv", ["--reuid=nobody", "--regid=nogroup", "--clear-groups", "--", bin + "/" + program] + args)
        } else {
            try run(bin + "/" + program, args)
        }
    }

    /// Runs a program to completion and returns its standard output.
    ///
    /// posix_spawn and waitpid, not Foundation's Process: `pg_ctl start` leaves a daemon behind
    /// that inherits the child's descriptors, and Process.waitUntilExit then never returns on Linux.
    /// Output goes to files for the same reason.
    @discardableResult
    private func run(_ path: String, _ args: [String], environment: [String: String] = [:]) throws -> String {
        let outFile = folder + "/.out-\(UUID().uuidString)", errFile = folder + "/.err-\(UUID().uuidString)"
        defer { unlink(outFile); unlink(errFile) }
        var env = ProcessInfo.processInfo.environment
        for (k, v) in environment { env[k] = v }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, outFile, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_addopen(&actions, 2, errFile, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        let argv: [UnsafeMutablePointer<CChar>?] = ([path] + args).map { strdup($0) } + [nil]
        let envp: [UnsafeMutablePointer<CChar>?] = env.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { argv.forEach { free($0) }; envp.forEach { free($0) } }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, path, &actions, nil, argv, envp)
        guard spawned == 0 else { throw Failure(description: "cannot start \(path): \(String(cString: strerror(spawned)))") }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        let exited = (status & 0x7f) == 0
        let code = exited ? (status >> 8) & 0xff : 128 + (status & 0x7f)
        let outData = FileManager.default.contents(atPath: outFile) ?? Data()
        let errData = FileManager.default.contents(atPath: errFile) ?? Data()
        guard code == 0 else {
            let log = (try? String(contentsOfFile: folder + "/server.log", encoding: .utf8)).map { " — server log: " + $0.suffix(600) } ?? ""
            throw Failure(description: "\(path) \(args.prefix(3).joined(separator: " ")) exited \(code): "
                          + String(decoding: errData, as: UTF8.self) + log)
        }
        return String(decoding: outData, as: UTF8.self)
    }

    /// The newest installed server's bin folder.
    private static func binaries() -> String? {
        let root = "/usr/lib/postgresql"
        let versions = ((try? FileManager.default.contentsOfDirectory(atPath: root)) ?? []).compactMap(Int.init).sorted()
        return versions.reversed().map { "\(root)/\($0)/bin" }.first { FileManager.default.isExecutableFile(atPath: $0 + "/pg_ctl") }
    }

    /// A port nothing listens on now (bound to port 0, then released).
    package static func freePort() throws -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw Failure(description: "socket() failed") }
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0 else { throw Failure(description: "bind() failed") }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let named = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        guard named == 0 else { throw Failure(description: "getsockname() failed") }
        return Int(UInt16(bigEndian: address.sin_port))
    }
}
