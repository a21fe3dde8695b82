import Foundation
import ReceptionCore

extension SQLiteMessageStore {
    public func teamProfiles() throws(ReceptionError) -> [TeamProfile] {
        try access("read the team profiles") { connection, scope throws(SQLiteFailure) in
            try connection.with(
                "SELECT id, name, photo_key, photo FROM team_profiles WHERE scope = ?1 ORDER BY position",
                [.text(scope.key)]
            ) { statement throws(SQLiteFailure) in
                var profiles: [TeamProfile] = []
                while try statement.step() {
                    profiles.append(TeamProfile(
                        id: statement.text(0), name: statement.text(1), photoKey: statement.optionalText(2),
                        photo: statement.optionalBlob(3)))
                }
                return profiles
            }
        }
    }

    public func saveTeamProfiles(_ profiles: [TeamProfile]) throws(ReceptionError) {
        try access("save the team profiles") { connection, scope throws(SQLiteFailure) in
            try connection.transaction { () throws(SQLiteFailure) in
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
        }
    }
}
