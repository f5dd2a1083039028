//! Byte-pair merging of one piece, as tiktoken does it: the adjacent pair whose joined bytes have
//! the lowest rank is merged first (the leftmost of equals), until no pair joins into a token.
//! Short pieces scan their parts for the lowest pair; longer ones keep the pairs in a heap; a
//! piece longer than a block (a run without spaces: a hash, base64, a line of `=`, 5 MB of tool
//! arguments) is merged a block at a time and the blocks' tokens stitched together where they
//! agree, so its time grows linearly with its length and its memory is a block's, where one heap
//! over the whole piece took n log n time (cache misses on every pop) and some 50 bytes a byte.
//!
//! Stitching gives exactly the whole piece's merge, by two facts of this merge rule (the `bpe`
//! crate's corollaries II and III; they hold for any rule that merges the lowest pair first):
//! - a run of consecutive tokens of a merge is the merge of its own bytes (no merge crossed its
//!   edges, and the merges inside it were each the lowest of the pairs inside it);
//! - if the merge of a text ends with a token `t` and the merge of `t` followed by more text
//!   begins with that `t`, the merge of the whole is the first followed by the second after `t`.
//!
//! So with the merge of the piece up to a block's end in hand, the next block starts at one of
//! that block's tokens well before its end, and once both have a token at the same place, the
//! merge up to the next block's end is the tokens so far up to it, then the next block's after
//! it. Two blocks with no token in common (text after a block's end changed every token of its
//! last [`OVERLAP`] bytes: no text is known to) send the piece to the heap whole.

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use crate::vocabulary::{rank, Rank};

/// From this length on a piece is merged with the heap (tiktoken's own threshold).
const LONG_PIECE: usize = 100;
/// Pieces longer than this are merged a block of this length at a time: a block's heap stays in
/// the processor's cache.
const BLOCK: usize = 4096;
/// How far before a block's end the next block starts, at the first of its tokens that starts no
/// further back: what follows a block changes only its last few tokens (the longest o200k token is
/// 128 bytes), so the two blocks have a token in common between.
const OVERLAP: usize = 512;

/// Where each token of `piece` starts, and the piece's length last.
pub(crate) fn token_bounds(piece: &[u8]) -> Vec<usize> {
    if piece.len() <= BLOCK {
        return merge(piece);
    }
    let mut bounds = vec![0];
    match merge_in_blocks(piece, |bound| bounds.push(bound)) {
        Some(()) => bounds,
        None => merge_long(piece),
    }
}

/// How many tokens `piece` merges into; a long piece's count keeps a block's bounds at a time.
#[inline]
pub(crate) fn token_count(piece: &[u8]) -> usize {
    if piece.len() <= BLOCK {
        return merge(piece).len() - 1;
    }
    let mut count = 0;
    match merge_in_blocks(piece, |_| count += 1) {
        Some(()) => count,
        None => merge_long(piece).len() - 1,
    }
}

/// The merge of a piece of a block's length or less.
#[inline]
fn merge(piece: &[u8]) -> Vec<usize> {
    if piece.len() < LONG_PIECE {
        merge_short(piece)
    } else {
        merge_long(piece)
    }
}

/// The merge of `piece` stitched from the merges of its blocks (see the module's comment): each
/// token's end, in order, told to `end`. `None` when two blocks have no token in common: the ends
/// told so far are then not the piece's.
fn merge_in_blocks(piece: &[u8], mut end: impl FnMut(usize)) -> Option<()> {
    // The block being stitched: where it starts in the piece, and its token bounds from there;
    // and where the tokens told so far end, one of its bounds.
    let (mut start, mut block, mut told) = (0, merge(&piece[..BLOCK]), 0);
    loop {
        let block_end = start + block[block.len() - 1];
        let mut tell_up_to = |last: usize| {
            block.iter().map(|&b| start + b).filter(|&b| b > told && b <= last).for_each(&mut end);
        };
        if block_end == piece.len() {
            tell_up_to(block_end);
            return Some(());
        }
        let next_start = start + block.iter().copied().find(|&b| start + b + OVERLAP >= block_end)?;
        let next = merge(&piece[next_start..piece.len().min(next_start + BLOCK)]);
        let shared_end = first_shared_token_end((start, &block), (next_start, &next))?;
        tell_up_to(shared_end);
        (start, block, told) = (next_start, next, shared_end);
    }
}

/// Where the first token both merges have at the same place ends, in the piece: `a` and `b` are
/// token bounds from where each starts in the piece, `b`'s start one of `a`'s bounds.
fn first_shared_token_end((a_start, a): (usize, &[usize]), (b_start, b): (usize, &[usize])) -> Option<usize> {
    let a: Vec<usize> = a.iter().map(|&bound| a_start + bound).filter(|&bound| bound >= b_start).collect();
    let b: Vec<usize> = b.iter().map(|&bound| b_start + bound).collect();
    let (mut i, mut j) = (0, 0);
    while i + 1 < a.len() && j + 1 < b.len() {
        if a[i] == b[j] && a[i + 1] == b[j + 1] {
            return Some(a[i + 1]);
        }
        // The token that ends first gives way to the next one; both, when they end together.
        let (a_end, b_end) = (a[i + 1], b[j + 1]);
        if a_end <= b_end {
            i += 1;
        }
        if b_end <= a_end {
            j += 1;
        }
    }
    None
}

fn joined_rank(piece: &[u8], start: usize, end: usize) -> Rank {
    rank(&piece[start..end]).unwrap_or(Rank::MAX)
}

/// The merge of a short piece, by scanning its parts for the lowest pair.
fn merge_short(piece: &[u8]) -> Vec<usize> {
    // (start of a part, rank of it joined with the next part); the last two are sentinels.
    let mut parts: Vec<(usize, Rank)> = (0..piece.len() - 1).map(|i| (i, joined_rank(piece, i, i + 2))).collect();
    parts.push((piece.len() - 1, Rank::MAX));
    parts.push((piece.len(), Rank::MAX));
    // The rank of part `i` joined with its next once part `i + 1` is merged into `i`.
    let rank_after_merge = |parts: &[(usize, Rank)], i: usize| {
        parts.get(i + 3).map_or(Rank::MAX, |&(end, _)| joined_rank(piece, parts[i].0, end))
    };
    loop {
        let lowest = parts[..parts.len() - 1]
            .iter()
            .enumerate()
            .min_by_key(|&(i, &(_, rank))| (rank, i))
            .filter(|&(_, &(_, rank))| rank != Rank::MAX)
            .map(|(i, _)| i);
        let Some(i) = lowest else { break };
        if i > 0 {
            parts[i - 1].1 = rank_after_merge(&parts, i - 1);
        }
        parts[i].1 = rank_after_merge(&parts, i);
        parts.remove(i + 1);
    }
    parts.pop();
    parts.into_iter().map(|(start, _)| start).chain([piece.len()]).collect()
}

/// The merge of a piece, with its pairs in a heap. A heap entry is a pair's rank and position in
/// one `u64` (one comparison, and a block's heap in 32 KB), so the piece is shorter than 4 GiB: a
/// block is, and a piece merged whole that long would need some 200 GB for its heap first.
fn merge_long(piece: &[u8]) -> Vec<usize> {
    let len = piece.len();
    assert!(len <= u32::MAX as usize, "a piece merged whole is shorter than 4 GiB");
    // Part `i` starts at byte `i`; `next`/`previous` link the parts still there (`len` ends them).
    let mut next: Vec<usize> = (1..=len).collect();
    let mut previous: Vec<Option<usize>> = (0..len).map(|i| i.checked_sub(1)).collect();
    let mut alive = vec![true; len];
    let pair_rank = |next: &[usize], i: usize| match next[i] {
        j if j == len => Rank::MAX,
        j => joined_rank(piece, i, next.get(j).copied().unwrap_or(len)),
    };
    let mut ranks: Vec<Rank> = (0..len).map(|i| pair_rank(&next, i)).collect();
    let entry = |rank: Rank, i: usize| Reverse((u64::from(rank) << 32) | i as u64);
    let mut heap: BinaryHeap<Reverse<u64>> =
        ranks.iter().enumerate().filter(|(_, &r)| r != Rank::MAX).map(|(i, &r)| entry(r, i)).collect();
    while let Some(Reverse(packed)) = heap.pop() {
        let (rank, i) = ((packed >> 32) as Rank, (packed & 0xffff_ffff) as usize);
        // A pair whose part was merged away or re-ranked since is stale; an entry equal to the
        // current one is the current pair (a rank names its bytes).
        if !alive[i] || ranks[i] != rank {
            continue;
        }
        let gone = next[i];
        alive[gone] = false;
        next[i] = next[gone];
        if next[i] < len {
            previous[next[i]] = Some(i);
        }
        ranks[i] = pair_rank(&next, i);
        if ranks[i] != Rank::MAX {
            heap.push(entry(ranks[i], i));
        }
        if let Some(before) = previous[i] {
            ranks[before] = pair_rank(&next, before);
            if ranks[before] != Rank::MAX {
                heap.push(entry(ranks[before], before));
            }
        }
    }
    (0..len).filter(|&i| alive[i]).chain([len]).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Text of `len` bytes drawn from `alphabet` by a fixed pseudo-random sequence.
    fn drawn(alphabet: &[u8], len: usize) -> Vec<u8> {
        let mut state: u64 = 0x9e37_79b9_7f4a_7c15;
        (0..len)
            .map(|_| {
                state = state.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
                alphabet[(state >> 33) as usize % alphabet.len()]
            })
            .collect()
    }

    #[test]
    fn a_piece_of_many_blocks_merges_as_one_heap_over_it_does() {
        let pieces = [
            b"x".repeat(100_000),
            b"abc".repeat(40_000),
            drawn(b"ab", 100_000),
            drawn(b"abcdefghijklmnopqrstuvwxyz", 100_000),
            drawn(b"=-*", 60_000),
            "\u{4e2d}\u{6587}".repeat(20_000).into_bytes(),
        ];
        for piece in pieces {
            let whole = merge_long(&piece);
            assert_eq!(token_bounds(&piece), whole, "{:?}…", String::from_utf8_lossy(&piece[..20]));
            assert_eq!(token_count(&piece), whole.len() - 1);
        }
    }

    #[test]
    fn the_first_shared_token_is_the_first_both_have_at_the_same_place() {
        // From 10 on: [10, 12) [12, 15) [15, 17) and [10, 13) [13, 15) [15, 17): the third.
        assert_eq!(first_shared_token_end((0, &[0, 4, 10, 12, 15, 17, 20]), (10, &[0, 3, 5, 7, 9])), Some(17));
        assert_eq!(first_shared_token_end((0, &[0, 10, 12, 15]), (10, &[0, 2, 5])), Some(12));
        assert_eq!(first_shared_token_end((5, &[0, 5, 8]), (10, &[0, 3])), Some(13));
        // No token in common: the piece is merged whole.
        assert_eq!(first_shared_token_end((0, &[0, 10, 13, 16]), (10, &[0, 2, 4, 6])), None);
    }
}
