import Foundation
import ReceptionCore

extension SQLiteMessageStore {
    @inline(never) @_optimize(size) public func teamProfiles() throws(ReceptionError) -> [TeamProfile] {
        try access("read the team profiles") { connection, scope throws(SQLiteFailure) in
            try connection.with(
                "SELECT id, name, photo_key, photo FROM team_profiles WHERE scope = ?1 ORDER BY position",
                [.text(scope.key)]
            ) { statement throws(SQLiteFailure) in try Self.readTeamProfiles(statement) }
        }
    }

    // The work of these operations, out of their closures (as in `SQLiteMessageStore+Session.swift`).

    @inline(never) @_optimize(size)
    static func readTeamProfiles(_ statement: SQLiteStatement) throws(SQLiteFailure) -> [TeamProfile] {
        var profiles: [TeamProfile] = []
        while try statement.step() {
            profiles.append(TeamProfile(
                id: statement.text(0), name: statement.text(1), photoKey: statement.optionalText(2),
                photo: statement.optionalBlob(3)))
        }
        return profiles
    }

    @inline(never) @_optimize(size) static func writeTeamProfiles(
        _ profiles: [TeamProfile], _ connection: SQLiteConnection, _ scope: StorageScope
    ) throws(SQLiteFailure) {
        try connection.run("DELETE FROM team_profiles WHERE scope = ?1", [.text(scope.key)])
        var seen = Set<String>()
        for (position, profile) in profiles.enumerated() where seen.insert(profile.id).inserted {
            try connection.run(
                """
                INSERT INTO team_profiles(scope, position, id, name, photo_key, photo)
                VALUES (?1, ?2, ?3, ?4, ?5, ?6)
                """,
                [.text(scope.key), .integer(Int64(position)), .text(profile.id), .text(profile.name),
                 .text(profile.photoKey), .blob(profile.photo)])
        }
    }

    @inline(never) @_optimize(size) public func saveTeamProfiles(_ profiles: [TeamProfile]) throws(ReceptionError) {
        try access("save the team profiles") { connection, scope throws(SQLiteFailure) in
            try connection.transaction { () throws(SQLiteFailure) in
                try Self.writeTeamProfiles(profiles, connection, scope)
            }
        }
    }
}
