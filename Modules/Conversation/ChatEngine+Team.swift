import Foundation
import ReceptionCore

extension ChatEngine {
    /// Spec 7.17: the cached names and photos, restored when the engine starts (visible before any answer).
    func restoreTeam() {
        team = TeamRoster(restoring: storing("load team profiles") { try deps.store.teamProfiles() } ?? [])
        teamVersion += 1
    }

    /// Spec 3.6 / 3.7: a history answer replaces the team map, a page merges into it; then the photos it wants are
    /// fetched and the cache is saved.
    func applyTeam(_ members: [TeamMember]?, replacing: Bool) {
        let before = team
        if replacing {
            team.replace(with: members ?? [])
        } else if let members {
            team.merge(members)
        }
        guard team != before else { return }
        if team.profiles != before.profiles {
            teamVersion += 1
            saveTeam()
        }
        fetchTeamPhotos()
    }

    /// Starts one download per wanted photo; a link that failed is not tried again until a newer one arrives
    /// (spec 3.18: links are short-lived, and a 403 means this one expired).
    func fetchTeamPhotos() {
        for request in team.wanted.values.sorted(by: { $0.memberID < $1.memberID })
        where teamDownloads[request.memberID] == nil && failedTeamLinks[request.memberID] != request.url {
            let epoch = teamEpoch
            let service = self.service
            teamDownloads[request.memberID] = Task { [weak self] in
                do throws(ReceptionError) {
                    let data = try await service.teamPhoto(url: request.url)
                    await self?.teamPhotoLoaded(request, data: data, epoch: epoch)
                } catch {
                    await self?.teamPhotoFailed(request, error: error, epoch: epoch)
                }
            }
        }
    }

    private func teamPhotoLoaded(_ request: TeamRoster.PhotoRequest, data: Data, epoch: Int) {
        // A chat reset, logout or shutdown since the download started: a late photo is not written anywhere.
        guard !isShutDown, epoch == teamEpoch else { return }
        teamDownloads[request.memberID] = nil
        failedTeamLinks[request.memberID] = nil
        if team.photoLoaded(request, data: data) {
            teamVersion += 1
            saveTeam()
            publish()
        }
        // The member may want a newer key by now.
        fetchTeamPhotos()
    }

    private func teamPhotoFailed(_ request: TeamRoster.PhotoRequest, error: ReceptionError, epoch: Int) {
        guard !isShutDown, epoch == teamEpoch else { return }
        teamDownloads[request.memberID] = nil
        guard error.code != ReceptionError.Code.cancelled else { return }
        logger.info("team photo not loaded (\(error.code), status \(error.status))")
        if error.code == ReceptionError.Code.imageTooLarge {
            // Too large under any link: the key is not fetched again.
            team.refuse(request)
            return
        }
        failedTeamLinks[request.memberID] = request.url
        if team.wanted[request.memberID].map({ $0.url != request.url }) == true { fetchTeamPhotos() }
    }

    /// Spec 7.12 / 7.15: a chat reset (and the end of the session) clears the team; downloads still running are
    /// cancelled, and one that finishes anyway is dropped by the epoch check.
    func clearTeam() {
        teamEpoch += 1
        for task in teamDownloads.values { task.cancel() }
        teamDownloads = [:]
        failedTeamLinks = [:]
        team = TeamRoster()
        teamVersion += 1
    }

    private func saveTeam() {
        let profiles = team.profiles
        storing("save team profiles") { try deps.store.saveTeamProfiles(profiles) }
    }
}
