import Foundation

/// Writes files so that they appear whole or not at all.
///
/// Each file is written under a temporary name in its own folder (`.<name>.tmp-<pid>`) and renamed
/// into place; `rename(2)` within one folder is atomic, so a run killed at any moment (even with
/// `kill -9`) leaves either the previous file or the new one under the final name, never a part.
/// Leftover temporary files from a killed run are removed by ``removeLeftovers(in:)``.
package enum AtomicFile {
    /// Writes `bytes` to `path` atomically, creating the folder if needed.
    package static func write(_ bytes: some ContiguousBytes, to path: String, durable: Bool = false) throws(OutputError) {
        try write(to: path, durable: durable) { temp throws(OutputError) in
            let fd = open(temp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
            guard fd >= 0 else { throw OutputError.cannotWrite(path: path, reason: String(cString: strerror(errno))) }
            defer { close(fd) }
            let failure: Int32 = bytes.withUnsafeBytes { (buffer: UnsafeRawBufferPointer) -> Int32 in
                var offset = 0
                while offset < buffer.count {
                    let n = Foundation.write(fd, buffer.baseAddress! + offset, buffer.count - offset)
                    if n < 0 {
                        if errno == EINTR { continue }
                        return errno
                    }
                    offset += n
                }
                return 0
            }
            if failure != 0 { throw OutputError.cannotWrite(path: path, reason: String(cString: strerror(failure))) }
            if durable, fsync(fd) != 0 { throw OutputError.cannotWrite(path: path, reason: String(cString: strerror(errno))) }
        }
    }

    /// Lets `produce` write a file at a temporary path (for C libraries that write files
    /// themselves), then renames it to `path`. On any error the temporary file is removed.
    package static func write(to path: String, durable: Bool = false, _ produce: (String) throws(OutputError) -> Void) throws(OutputError) {
        let (folder, name) = split(path)
        // A statement writes a dozen files into a few folders: one stat(2) tells whether the folder
        // is there; FileManager's recursive create (~0.15 ms) runs only when it is not.
        var info = stat()
        if stat(folder, &info) != 0 || (info.st_mode & S_IFMT) != S_IFDIR {
            do {
                try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            } catch {
                throw .cannotWrite(path: path, reason: "cannot create folder '\(folder)': \(whyNoFolder(folder, error))")
            }
        }
        let temp = folder + "/." + name + ".tmp-\(getpid())"
        unlink(temp)   // a link planted under the temporary name would be written through
        do {
            try produce(temp)
        } catch {
            unlink(temp)
            throw error
        }
        if durable {
            let fd = open(temp, O_RDONLY | O_CLOEXEC)
            if fd >= 0 { fsync(fd); close(fd) }
        }
        guard rename(temp, path) == 0 else {
            let reason = String(cString: strerror(errno))
            unlink(temp)
            throw .cannotWrite(path: path, reason: reason)
        }
    }

    /// `path`'s folder ("." for a bare name) and last component, as `URL` would give them, without
    /// building a `URL`.
    static func split(_ path: String) -> (folder: String, name: String) {
        var trimmed = Substring(path)
        while trimmed.count > 1, trimmed.hasSuffix("/") { trimmed = trimmed.dropLast() }
        guard let slash = trimmed.lastIndex(of: "/") else { return (".", String(trimmed)) }
        let folder = trimmed[..<slash]
        return (folder.isEmpty ? "/" : String(folder), String(trimmed[trimmed.index(after: slash)...]))
    }

    /// Why `folder` could not be created, in words: the system's reason (Foundation's own text is
    /// "The operation could not be completed. (NSCocoaErrorDomain error 512.)"), and which part of
    /// the path is a file when one is.
    package static func whyNoFolder(_ folder: String, _ error: any Error) -> String {
        var prefix = ""
        for component in (folder as NSString).pathComponents.dropLast() {
            prefix = prefix.isEmpty ? component : (prefix as NSString).appendingPathComponent(component)
            var info = stat()
            if stat(prefix, &info) == 0, (info.st_mode & S_IFMT) != S_IFDIR { return "'\(prefix)' is a file, not a folder" }
        }
        let underlying = (error as NSError).userInfo[NSUnderlyingErrorKey] as? NSError
        if let posix = underlying, posix.domain == NSPOSIXErrorDomain { return String(cString: strerror(Int32(posix.code))) }
        return error.localizedDescription
    }

    /// Removes each symbolic link standing in `base` where a folder of `relative`'s path belongs
    /// (`users`, then `users/2-zoë`), and returns the paths removed. The run writes a user's files
    /// into that path: through a link they would land wherever it points, outside the output tree,
    /// and the manifest would list them as written (a link to another folder overwrote its files).
    /// The folder the run owns is then made afresh by the next write.
    package static func removeLinks(in base: String, along relative: String) -> [String] {
        var removed: [String] = []
        var path = base
        for component in relative.split(separator: "/") {
            path += "/" + component
            var info = stat()
            guard lstat(path, &info) == 0 else { break }
            if (info.st_mode & S_IFMT) == S_IFLNK, unlink(path) == 0 { removed.append(path) }
        }
        return removed
    }

    /// Removes temporary files left by killed runs anywhere under `folder` (those of runs still
    /// alive, such as a concurrent shard, are left alone; see ``ProcessLiveness``).
    package static func removeLeftovers(in folder: String) {
        guard let walker = FileManager.default.enumerator(atPath: folder) else { return }
        while let item = walker.nextObject() as? String {
            let name = (item as NSString).lastPathComponent
            guard name.hasPrefix("."), let r = name.range(of: ".tmp-", options: .backwards),
                  let pid = Int32(name[r.upperBound...]) else { continue }
            if pid == getpid() || !ProcessLiveness.isLiveRun(pid) {
                unlink(folder + "/" + item)
            }
        }
    }

    /// Removes the report files an earlier run left in an ezreport-owned folder that this run
    /// did not write: `*.pdf`, `*.xlsx` and `*.csv` in `folder` itself, and `charts/*.png`, when
    /// their path (as `relativeFolder/name`) is not among `written`. A re-run with fewer formats,
    /// or a chart a user no longer has (a group left), left the old files beside the new ones,
    /// out of the manifest and contradicting it. Other files, and hidden ones, are not touched;
    /// `charts/` goes when it is left empty. Returns the paths removed.
    @discardableResult
    package static func removeStale(in folder: String, relativeFolder: String, keeping written: [Manifest.FileEntry]) -> [String] {
        let kept = Set(written.map { $0.path.hasPrefix("./") ? String($0.path.dropFirst(2)) : $0.path })
        let prefix = relativeFolder == "." ? "" : relativeFolder + "/"
        var removed: [String] = []
        func sweep(_ sub: String, extensions: Set<String>) {
            let dir = sub.isEmpty ? folder : folder + "/" + sub
            guard let names = try? FileManager.default.contentsOfDirectory(atPath: dir) else { return }
            for name in names where !name.hasPrefix(".") && extensions.contains((name as NSString).pathExtension) {
                let relative = prefix + (sub.isEmpty ? name : sub + "/" + name)
                var st = stat()
                guard !kept.contains(relative), lstat(dir + "/" + name, &st) == 0, (st.st_mode & S_IFMT) == S_IFREG else { continue }
                if unlink(dir + "/" + name) == 0 { removed.append(relative) }
            }
        }
        sweep("", extensions: ["pdf", "xlsx", "csv"])
        sweep("charts", extensions: ["png"])
        rmdir(folder + "/charts")   // only when empty
        return removed
    }
}

/// An output file or folder that could not be written.
package enum OutputError: Error, Equatable, CustomStringConvertible {
    /// `error` as one short reason: the system's words for a POSIX error (Foundation's wrap, the
    /// whole `Error Domain=NSCocoaErrorDomain Code=640 … UserInfo={…}`, was printed before).
    package static func reason(_ error: any Error) -> String {
        let ns = error as NSError
        if ns.domain == NSPOSIXErrorDomain { return String(cString: strerror(Int32(ns.code))) }
        if let underlying = ns.userInfo[NSUnderlyingErrorKey] as? NSError, underlying.domain == NSPOSIXErrorDomain {
            return String(cString: strerror(Int32(underlying.code)))
        }
        if ns.domain == NSCocoaErrorDomain { return ns.localizedDescription }
        return "\(error)"
    }

    case cannotWrite(path: String, reason: String)
    /// The file system holding `folder` refuses writes (full, or over quota): the run stopped starting
    /// users; those finished are in its journal and the next run resumes from them.
    case outputFull(folder: String, reason: String)
    /// The process may open no more files (`EMFILE`, `ENFILE`): the run stopped starting users,
    /// as for ``outputFull(folder:reason:)``.
    case outOfFileDescriptors(reason: String)
    /// The output folder (or its `users` folder) refuses new files (`EACCES`, `EPERM`, `EROFS`):
    /// the run stopped starting users, as for ``outputFull(folder:reason:)``.
    case outputUnwritable(folder: String, reason: String)
    package var description: String {
        switch self {
        case .cannotWrite(let path, let reason): return "cannot write '\(path)': \(reason)"
        case .outputFull(let folder, let reason):
            return "the output file system is full under '\(folder)', so the run stopped (\(reason)); "
                + "free some space and run again: it resumes where it stopped"
        case .outOfFileDescriptors(let reason):
            return "the process ran out of file descriptors, so the run stopped (\(reason)); raise the limit "
                + "(ulimit -n; LimitNOFILE= for a systemd unit) and run again: it resumes where it stopped"
        case .outputUnwritable(let folder, let reason):
            return "the output folder '\(folder)' cannot be written any more, so the run stopped (\(reason)); "
                + "make it writable and run again: it resumes where it stopped"
        }
    }
}
