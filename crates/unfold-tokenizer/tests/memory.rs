//! What counting a long piece holds in memory, as an allocator that keeps the peak sees it: a
//! binary of its own, so that no other test's allocations are counted with it.

use peak_alloc::PeakAlloc;

#[global_allocator]
static ALLOCATOR: PeakAlloc = PeakAlloc;

#[test]
fn counting_a_long_piece_holds_a_block_not_the_piece() {
    let piece = "x".repeat(1 << 18);
    let before = ALLOCATOR.current_usage();
    ALLOCATOR.reset_peak_usage();
    let count = unfold_tokenizer::count(&piece);
    let held = ALLOCATOR.peak_usage() - before;
    assert_eq!(count, 32_768);
    // One heap over the whole piece held some 50 bytes a byte: 13 MB here, 800 MB for the 16 MiB
    // an answer may hold.
    assert!(held < 1 << 20, "counting 256 KiB of one piece held {held} bytes at once");
}
