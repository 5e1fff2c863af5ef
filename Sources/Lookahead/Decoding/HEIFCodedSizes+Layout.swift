// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT

extension HEIFCodedSizes {
    /// What the box walk collects: decoder configurations, items, their locations and the `idat` box.
    struct FileLayout {
        var configurationSizes: [Size] = []
        var av1ConfigurationsWithoutSequenceHeader = 0
        var items: [(id: Int, type: String)] = []
        /// Per item: construction method (0 file, 1 idat), the first extent's offset (base included) and length.
        var locations: [Int: (method: Int, offset: Int, length: Int)] = [:]
        var itemData: Range<Int>?
        /// Item references, of every type, from each item to the items it names.
        var references: [Int: [Int]] = [:]
        /// More references than are followed: the check of ``referencesAreBounded(depth:)`` fails.
        var hasTooManyReferences = false

        mutating func read(_ type: String, _ payload: Range<Int>, in bytes: UnsafeRawBufferPointer) {
            switch type {
            case "hvcC":
                if let size = hevcSize(Array(bytes[payload])) { configurationSizes.append(size) }
            case "av1C":
                if let size = av1Size(Array(bytes[payload])) {
                    configurationSizes.append(size)
                } else {
                    av1ConfigurationsWithoutSequenceHeader += 1
                }
            case "infe":
                // A full box; a 16-bit item ID (version 2) or 32-bit (3), a protection index, the item type.
                var reader = ByteReader(bytes, payload)
                guard let version = reader.read(1), reader.skip(3), version >= 2,
                    let id = reader.read(version == 2 ? 2 : 4), reader.skip(2), let type = reader.fourCC()
                else { return }
                items.append((id, type))
            case "iloc":
                readLocations(ByteReader(bytes, payload))
            case "idat":
                itemData = payload
            case "iref":
                readReferences(ByteReader(bytes, payload))
            default:
                break
            }
        }

        /// ISO/IEC 14496-12 8.11.3: each item's first extent.
        private mutating func readLocations(_ box: ByteReader) {
            var reader = box
            guard let version = reader.read(1), version <= 2, reader.skip(3), let sizes = reader.read(1),
                let moreSizes = reader.read(1)
            else { return }
            let (offsetSize, lengthSize, baseSize) = (sizes >> 4, sizes & 15, moreSizes >> 4)
            let indexSize = version >= 1 ? moreSizes & 15 : 0
            guard let count = reader.read(version < 2 ? 2 : 4) else { return }
            for _ in 0..<min(count, 4_096) {
                guard let id = reader.read(version < 2 ? 2 : 4) else { return }
                var method = 0
                if version >= 1 {
                    guard let value = reader.read(2) else { return }
                    method = value & 15
                }
                guard reader.skip(2), let base = reader.read(baseSize), let extents = reader.read(2) else { return }
                for index in 0..<extents {
                    guard reader.skip(indexSize), let offset = reader.read(offsetSize),
                        let length = reader.read(lengthSize)
                    else { return }
                    if index == 0 { locations[id] = (method, base + offset, length) }
                }
            }
        }

        /// ISO/IEC 14496-12 8.11.12: a full box of boxes, each one type of reference from one item to others (item
        /// IDs of 16 bits in version 0, 32 in version 1).
        private mutating func readReferences(_ box: ByteReader) {
            var reader = box
            guard let version = reader.read(1), version <= 1, reader.skip(3) else { return }
            let idSize = version == 0 ? 2 : 4
            var count = 0
            while let size = reader.read(4), reader.fourCC() != nil {
                guard let from = reader.read(idSize), let targets = reader.read(2) else { return }
                let rest = size - (8 + idSize + 2 + targets * idSize)
                guard rest >= 0 else { return }
                for _ in 0..<targets {
                    guard let to = reader.read(idSize) else { return }
                    count += 1
                    guard count <= 65_536 else {
                        hasTooManyReferences = true
                        return
                    }
                    references[from, default: []].append(to)
                }
                guard reader.skip(rest) else { return }
            }
        }

        /// Whether the references form no loop and no chain of more than `depth` items, by a walk that keeps its
        /// own stack.
        func referencesAreBounded(depth limit: Int) -> Bool {
            guard !hasTooManyReferences else { return false }
            var longest: [Int: Int] = [:]  // finished items: the longest chain from each
            var onPath = Set<Int>()
            for root in references.keys where longest[root] == nil {
                var stack = [(item: root, next: 0)]
                onPath.insert(root)
                while let (item, next) = stack.last {
                    let targets = references[item] ?? []
                    if next < targets.count {
                        stack[stack.count - 1].next += 1
                        let target = targets[next]
                        if onPath.contains(target) { return false }  // a loop
                        if longest[target] == nil {
                            guard stack.count < limit else { return false }
                            onPath.insert(target)
                            stack.append((target, 0))
                        }
                    } else {
                        let chain = 1 + (targets.compactMap { longest[$0] }.max() ?? 0)
                        guard chain <= limit else { return false }
                        longest[item] = chain
                        onPath.remove(item)
                        stack.removeLast()
                    }
                }
            }
            return true
        }

        /// The byte range of an item's first extent, within the file.
        func firstExtent(of id: Int, in fileSize: Int) -> Range<Int>? {
            guard let location = locations[id] else { return nil }
            let start: Int
            let end: Int
            switch location.method {
            case 0:
                start = location.offset
                end = location.length == 0 ? fileSize : location.offset + location.length
            case 1:
                guard let itemData else { return nil }
                start = itemData.lowerBound + location.offset
                end = location.length == 0 ? itemData.upperBound : start + location.length
            default:
                return nil
            }
            guard start >= 0, start < end, end <= fileSize else { return nil }
            return start..<end
        }
    }
}
