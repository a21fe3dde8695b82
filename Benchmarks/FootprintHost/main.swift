// FootprintHost: the minimal host of Docs/Footprint.md. A terminal program of the same kind as reception-chat
// (Foundation, reads lines, prints), linking nothing of ours: the size reception-chat has beyond it is what the SDK
// (and the chat's own small screen code) adds to an app.
import Foundation

let started = Date()
var lines = 0
while let line = readLine() {
    lines += 1
    if line == "/quit" { break }
    print("\(lines): \(line)")
}
print("read \(lines) lines in \(Date().timeIntervalSince(started)) s")
