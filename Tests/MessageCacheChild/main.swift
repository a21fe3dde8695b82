// The process the crash-safety and lock tests of MessageCacheTests start and then kill with SIGKILL.
//
//   message-cache-child outbox <directory> <first index>   enqueue SelfCheckingMessage rows forever, printing
//                                                           "committed <index>" after each enqueue returns
//   message-cache-child lock <database file>                hold an exclusive lock, print "locked", wait
import CSQLite
import Foundation
import MessageCache
import ReceptionCore
import ReceptionTesting

let arguments = CommandLine.arguments
guard arguments.count >= 3 else {
    FileHandle.standardError.write(Data("usage: message-cache-child outbox|lock <path> [first index]\n".utf8))
    exit(2)
}

switch arguments[1] {
case "outbox":
    let scope = StorageScope(appID: "app_crashAAAAAAAAAAAAAAAAAAAAA", generation: "-g1")
    do {
        let store = try SQLiteMessageStore(directory: URL(fileURLWithPath: arguments[2]), scope: scope, logger: .silent)
        var index = arguments.count > 3 ? Int(arguments[3]) ?? 0 : 0
        while true {
            try store.enqueue(SelfCheckingMessage.make(index))
            // Unbuffered write: the line reaches the test only after the commit returned.
            FileHandle.standardOutput.write(Data("committed \(index)\n".utf8))
            index += 1
        }
    } catch {
        FileHandle.standardError.write(Data("child failed: \(error)\n".utf8))
        exit(1)
    }
case "lock":
    var handle: OpaquePointer?
    guard sqlite3_open(arguments[2], &handle) == SQLITE_OK,
          sqlite3_exec(handle, "PRAGMA locking_mode = EXCLUSIVE; BEGIN EXCLUSIVE;", nil, nil, nil) == SQLITE_OK
    else {
        FileHandle.standardError.write(Data("could not lock\n".utf8))
        exit(1)
    }
    FileHandle.standardOutput.write(Data("locked\n".utf8))
    while true { sleep(60) }
default:
    exit(2)
}
