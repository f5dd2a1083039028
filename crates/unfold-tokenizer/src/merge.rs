//! Byte-pair merging of one piece, as tiktoken does it: the adjacent pair whose joined bytes have
//! the lowest rank is merged first (the leftmost of equals), until no pair joins into a token.
//! Short pieces scan their parts for the lowest pair; long ones keep the pairs in a heap, so a
//! long run without spaces (a hash, base64) costs n log n rather than n².

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use crate::vocabulary::{rank, Rank};

/// From this length on a piece is merged with the heap (tiktoken's own threshold).
const LONG_PIECE: usize = 100;

/// Where each token of `piece` starts, and the piece's length last.
pub(crate) fn token_bounds(piece: &[u8]) -> Vec<usize> {
    if piece.len() < LONG_PIECE {
        merge_short(piece)
    } else {
        merge_long(piece)
    }
}

fn joined_rank(piece: &[u8], start: usize, end: usize) -> Rank {
    rank(&piece[start..end]).unwrap_or(Rank::MAX)
}

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

fn merge_long(piece: &[u8]) -> Vec<usize> {
    let len = piece.len();
    // Part `i` starts at byte `i`; `next`/`previous` link the parts still there (`len` ends them).
    let mut next: Vec<usize> = (1..=len).collect();
    let mut previous: Vec<Option<usize>> = (0..len).map(|i| i.checked_sub(1)).collect();
    let mut alive = vec![true; len];
    let pair_rank = |next: &[usize], i: usize| match next[i] {
        j if j == len => Rank::MAX,
        j => joined_rank(piece, i, next.get(j).copied().unwrap_or(len)),
    };
    let mut ranks: Vec<Rank> = (0..len).map(|i| pair_rank(&next, i)).collect();
    let mut heap: BinaryHeap<Reverse<(Rank, usize)>> =
        ranks.iter().enumerate().filter(|(_, &r)| r != Rank::MAX).map(|(i, &r)| Reverse((r, i))).collect();
    while let Some(Reverse((rank, i))) = heap.pop() {
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
            heap.push(Reverse((ranks[i], i)));
        }
        if let Some(before) = previous[i] {
            ranks[before] = pair_rank(&next, before);
            if ranks[before] != Rank::MAX {
                heap.push(Reverse((ranks[before], before)));
            }
        }
    }
    (0..len).filter(|&i| alive[i]).chain([len]).collect()
}
