import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The file rule of the SDK's data folder (issue 15): what the SDK writes there is readable by the app's user only —
/// folders it creates are mode 0700, files 0600, as the secure store keeps its items. The message cache and the
/// facade's preferences files both go through these calls, so the rule lives in one place.
package enum PrivateFiles {
    /// Folder mode: the owner only.
    static let folderMode: mode_t = 0o700
    /// File mode: the owner reads and writes.
    static let fileMode: mode_t = 0o600

    /// Creates `url` as a folder of mode 0700 (missing parents are created with the system's default mode). A folder
    /// that already exists keeps its mode: `dataDirectory` may be a folder the host shares, and the files in it are
    /// private whatever the folder allows.
    @_optimize(size) package static func createFolder(_ url: URL) throws(ReceptionError) {
        let path = url.path
        var info = stat()
        if stat(path, &info) == 0 {
            guard (info.st_mode & S_IFMT) == S_IFDIR else { throw .storageUnavailable }
            return
        }
        do {
            try FileManager.default.createDirectory(
                at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        } catch {
            throw .storageUnavailable
        }
        if mkdir(path, folderMode) != 0 {
            guard errno == EEXIST else { throw .storageUnavailable }
            return
        }
        // mkdir applies the umask; make the mode exact.
        chmod(path, folderMode)
    }

    /// Creates an empty file of mode 0600 at `url` unless something exists there (SQLite then opens it as a new
    /// database and gives its `-wal` and `-shm` files the same mode).
    @_optimize(size) package static func createEmptyFile(_ url: URL) throws(ReceptionError) {
        let fd = open(url.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, fileMode)
        if fd < 0 {
            guard errno == EEXIST else { throw failure(errno) }
            return
        }
        fchmod(fd, fileMode)
        close(fd)
    }

    /// Takes group and other bits away from an existing file of ours (one an earlier version created 0644). A
    /// missing file is fine.
    @_optimize(size) package static func restrict(_ url: URL) {
        var info = stat()
        guard lstat(url.path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG, info.st_mode & 0o077 != 0 else { return }
        chmod(url.path, fileMode)
    }

    /// Replaces `url` with `data` atomically: a temporary file of mode 0600 beside it (created exclusively, so it is
    /// never a file someone planted), synced, renamed over `url`, then the folder synced. A failure leaves the
    /// previous file as it was and no temporary file behind: `storage_full` for a full disk, otherwise
    /// `storage_unavailable`.
    @_optimize(size) package static func write(_ data: Data, to url: URL) throws(ReceptionError) {
        let folder = url.deletingLastPathComponent()
        let temporary = folder.appendingPathComponent(temporaryName(for: url))
        unlink(temporary.path)
        let fd = open(temporary.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, fileMode)
        guard fd >= 0 else { throw failure(errno) }
        var code: Int32?
        if fchmod(fd, fileMode) != 0 { code = errno }
        if code == nil { code = writeAll(data, to: fd) }
        if code == nil, fsync(fd) != 0 { code = errno }
        close(fd)
        if code == nil, rename(temporary.path, url.path) != 0 { code = errno }
        if let code {
            unlink(temporary.path)
            throw failure(code)
        }
        let folderFD = open(folder.path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if folderFD >= 0 {
            fsync(folderFD)
            close(folderFD)
        }
    }

    /// Removes the temporary files an interrupted `write(_:to:)` of `url` left (a crash between create and rename);
    /// they may hold an earlier version of the file.
    @_optimize(size) package static func removeLeftovers(of url: URL) {
        let folder = url.deletingLastPathComponent()
        let prefix = "." + url.lastPathComponent + ".tmp-"
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder.path) else { return }
        for name in names where name.hasPrefix(prefix) {
            unlink(folder.appendingPathComponent(name).path)
        }
    }

    /// `.<name>.tmp-<pid>`: one per process, and writers of one file in a process are serialised by its owner.
    @_optimize(size) private static func temporaryName(for url: URL) -> String {
        "." + url.lastPathComponent + ".tmp-\(getpid())"
    }

    @_optimize(size) private static func writeAll(_ data: Data, to fd: Int32) -> Int32? {
        data.withUnsafeBytes { buffer -> Int32? in
            var offset = 0
            while offset < buffer.count {
                let written = systemWrite(fd, buffer.baseAddress.map { $0 + offset }, buffer.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    return errno
                }
                offset += written
            }
            return nil
        }
    }

    @_optimize(size) private static func failure(_ code: Int32) -> ReceptionError {
        code == ENOSPC || code == EDQUOT ? .storageFull : .storageUnavailable
    }
}

/// The platform's `write(2)`, named apart from the methods above.
@_optimize(size) private func systemWrite(_ fd: Int32, _ buffer: UnsafeRawPointer?, _ count: Int) -> Int {
    #if canImport(Darwin)
    Darwin.write(fd, buffer, count)
    #elseif canImport(Musl)
    Musl.write(fd, buffer, count)
    #else
    Glibc.write(fd, buffer, count)
    #endif
}
