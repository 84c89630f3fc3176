import CBlkid

/// What a stick's filesystem says of itself, read by libblkid from its superblock: its type and label.
public struct StickFilesystem: Sendable, Equatable {
    /// `vfat`, `exfat`, `ext4`… as libblkid names it.
    public var type: String
    /// The label; empty when it has none.
    public var label: String

    public init(type: String, label: String) {
        self.type = type
        self.label = label
    }

    /// The filesystems trackd-stick writes to.
    public static let supported: Set<String> = ["vfat", "exfat", "ext4"]

    /// Reads the filesystem on `device` (a block device, or an image file).
    public static func probe(_ device: String) throws(StickError) -> StickFilesystem {
        guard let probe = blkid_new_probe_from_filename(device) else {
            throw .cannotProbe(device: device, reason: "it cannot be opened (gone, or not readable by this user)")
        }
        defer { blkid_free_probe(probe) }
        blkid_probe_enable_superblocks(probe, 1)
        blkid_probe_set_superblocks_flags(probe, Int32(BLKID_SUBLKS_TYPE | BLKID_SUBLKS_LABEL))
        switch blkid_do_safeprobe(probe) {
        case 0: break
        case 1: throw .cannotProbe(device: device, reason: "no filesystem was found on it")
        case -2: throw .cannotProbe(device: device, reason: "it carries signatures of more than one filesystem")
        default: throw .cannotProbe(device: device, reason: "reading it failed")
        }
        return StickFilesystem(type: value("TYPE", of: probe) ?? "", label: value("LABEL", of: probe) ?? "")
    }

    private static func value(_ name: String, of probe: blkid_probe) -> String? {
        var data: UnsafePointer<CChar>?
        var length = 0
        guard blkid_probe_lookup_value(probe, name, &data, &length) == 0, let data else { return nil }
        return String(cString: data)
    }
}
