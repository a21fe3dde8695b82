import Foundation
import ReceptionCore

/// The team map of a session with its photos (spec 3.6, 3.7, 4.5, 7.17): who wrote agent replies, their first
/// names and, once downloaded, their photos — within the cache's limits.
///
/// A photo is cached under its key (`photoId`, else the link), so a re-signed link does not download it again; a
/// photo whose key changed stays shown until the replacement has loaded; a member without a photo loses the cached
/// one; a history answer replaces the map (dropping members no longer in it), a page merges into it.
struct TeamRoster: Sendable, Equatable {
    /// Spec 7.17: at most 50 members.
    static let maximumMembers = 50
    /// Spec 7.17: one photo at most 512 KiB.
    static let maximumPhotoBytes = TeamProfile.maximumPhotoBytes
    /// Spec 7.17: all photos together at most 6 MiB.
    static let maximumTotalPhotoBytes = 6 * 1024 * 1024
    /// Spec 7.17: a stored cache larger than 9 MiB is ignored.
    static let maximumStoredBytes = 9 * 1024 * 1024

    /// A photo the roster wants: the member, the key it will be cached under, and the link to fetch.
    struct PhotoRequest: Sendable, Equatable {
        var memberID: String
        var key: String
        var url: URL
    }

    /// Members in map order.
    private(set) var profiles: [TeamProfile] = []
    /// Per member, the photo to fetch (its key differs from the cached one, or nothing is cached yet).
    private(set) var wanted = KeyedList<PhotoRequest>()
    /// Photo keys whose photo broke a limit: not fetched again for this roster, whatever link comes with them.
    private(set) var refusedKeys: Set<String> = []

    @_optimize(size) init() {}

    /// The stored cache, or nothing when it breaks the limits (more than 50 members, more than 9 MiB); a photo
    /// over 512 KiB, or beyond 6 MiB in total, is dropped and its member kept.
    @inline(never) @_optimize(size) init(restoring stored: [TeamProfile]) {
        let size = stored.reduce(0) { $0 + $1.id.utf8.count + $1.name.utf8.count + ($1.photo?.count ?? 0) }
        guard stored.count <= Self.maximumMembers, size <= Self.maximumStoredBytes else { return }
        var seen = Set<String>()
        var total = 0
        for var profile in stored where !profile.id.isEmpty && seen.insert(profile.id).inserted {
            // A cache written before first names (issue 52) may hold whole names.
            profile.name = Self.firstName(of: profile.name)
            if let photo = profile.photo {
                if photo.count > Self.maximumPhotoBytes || total + photo.count > Self.maximumTotalPhotoBytes {
                    profile.photo = nil
                    if let key = profile.photoKey { refusedKeys.insert(key) }
                } else {
                    total += photo.count
                }
            }
            profiles.append(profile)
        }
    }

    /// The profile of `id`.
    @_optimize(size) subscript(id: String) -> TeamProfile? { profiles.first { $0.id == id } }

    /// Spec 3.6: a history answer replaces the map; members absent from it are dropped.
    @inline(never) @_optimize(size) mutating func replace(with members: [TeamMember]) {
        var next: [TeamProfile] = []
        var nextWanted = KeyedList<PhotoRequest>()
        for member in Self.valid(members).prefix(Self.maximumMembers) {
            let (profile, request) = applying(member, to: self[member.id], pending: wanted[member.id])
            next.append(profile)
            nextWanted[member.id] = request
        }
        profiles = next
        wanted = nextWanted
    }

    /// Spec 3.7: a page merges into the map, the newest entry winning; the oldest members go beyond 50.
    @inline(never) @_optimize(size) mutating func merge(_ members: [TeamMember]) {
        for member in Self.valid(members) {
            let (profile, request) = applying(member, to: self[member.id], pending: wanted[member.id])
            if let index = profiles.firstIndex(where: { $0.id == member.id }) {
                profiles[index] = profile
            } else {
                profiles.append(profile)
            }
            wanted[member.id] = request
        }
        while profiles.count > Self.maximumMembers {
            let dropped = profiles.removeFirst()
            wanted[dropped.id] = nil
        }
    }

    /// A downloaded photo: kept when its member still wants that key and it fits the limits. Returns whether the
    /// roster changed.
    @inline(never) @_optimize(size) mutating func photoLoaded(_ request: PhotoRequest, data: Data) -> Bool {
        guard wanted[request.memberID]?.key == request.key,
              let index = profiles.firstIndex(where: { $0.id == request.memberID }) else { return false }
        wanted[request.memberID] = nil
        let others = profiles.indices.reduce(0) { $0 + ($1 == index ? 0 : profiles[$1].photo?.count ?? 0) }
        guard !data.isEmpty, data.count <= Self.maximumPhotoBytes,
              others + data.count <= Self.maximumTotalPhotoBytes else {
            refusedKeys.insert(request.key)
            return false
        }
        profiles[index].photoKey = request.key
        profiles[index].photo = data
        return true
    }

    /// A photo that can never be kept (the service answered `image_too_large`): its key is not fetched again.
    @_optimize(size) mutating func refuse(_ request: PhotoRequest) {
        refusedKeys.insert(request.key)
        if wanted[request.memberID]?.key == request.key { wanted[request.memberID] = nil }
    }

    /// Seed 001 "Team photos and names": the chat shows a teammate's first name, the first word of the display name
    /// in any script (words end at any Unicode white space, U+3000 included), or the whole name when it is one word.
    @_optimize(size) static func firstName(of displayName: String) -> String {
        let trimmed = displayName.drop { $0.isWhitespace }
        return String(trimmed.prefix { !$0.isWhitespace })
    }

    /// Entries with an ID, the last of each ID winning (a team list is keyed by ID).
    @inline(never) @_optimize(size) private static func valid(_ members: [TeamMember]) -> [TeamMember] {
        var latest: [String: TeamMember] = [:]
        var order: [String] = []
        for member in members where !member.id.isEmpty {
            if latest.updateValue(member, forKey: member.id) == nil { order.append(member.id) }
        }
        return order.compactMap { latest[$0] }
    }

    /// `member` laid over what is cached for it: the name always; the photo by key (spec 4.5).
    @inline(never) @_optimize(size) private func applying(
        _ member: TeamMember, to cached: TeamProfile?, pending: PhotoRequest?
    ) -> (TeamProfile, PhotoRequest?) {
        var profile = cached ?? TeamProfile(id: member.id, name: Self.firstName(of: member.name))
        profile.name = Self.firstName(of: member.name)
        guard let key = member.photoCacheKey else {
            // No photo any more: the cached one goes.
            profile.photoKey = nil
            profile.photo = nil
            return (profile, nil)
        }
        if profile.photoKey == key, profile.photo != nil { return (profile, nil) }
        if profile.photo == nil { profile.photoKey = key }
        if refusedKeys.contains(key) { return (profile, nil) }
        // A new link for the wanted key replaces an older one (links are short-lived); without a link, the one
        // already known is kept.
        let url = member.photoUrl.flatMap(URL.init(string:)).flatMap { $0.scheme == nil ? nil : $0 }
        if let url { return (profile, PhotoRequest(memberID: member.id, key: key, url: url)) }
        return (profile, pending?.key == key ? pending : nil)
    }
}
