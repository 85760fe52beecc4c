//! The per-sample paths allocate nothing once running (DESIGN: no allocation per packet).
//! A counting global allocator watches the detectors after their first intervals/windows.

use pathpool_sbd::{DecisionFilter, FilterParams, Rfc8382Detector, SbdParams, TrendLineDetector, TrendParams};
use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering};

struct Counting;
static ALLOCATIONS: AtomicUsize = AtomicUsize::new(0);

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

/// Delay with a slow sawtooth and a fast wiggle, so intervals, crossings and runs all occur.
fn owd(i: u64, flow: usize) -> i64 {
    20_000_000 + ((i / 7 + flow as u64 * 13) % 3000) as i64 * 10_000 + (i % 5) as i64 * 50_000
}

#[test]
fn detectors_and_filter_do_not_allocate_per_sample() {
    let flows = 5;
    // Every optional step on: clock-skew removal and the delay-correlation split.
    let params = SbdParams { skew_removal: true, corr_split: true, change_detect: true, ..SbdParams::rfc8382() };
    let mut det = Rfc8382Detector::new(params, flows);
    let mut filter = DecisionFilter::new(FilterParams::default(), flows);
    let mut tr = TrendLineDetector::new(TrendParams::default(), flows);
    let mut run = |from: u64, to: u64| {
        let mut made = 0u64;
        for i in from..to {
            let now = i * 200_000; // 5 k samples/s in total
            let flow = (i % flows as u64) as usize;
            while let Some(o) = det.poll(now) {
                made += filter.push(o).is_some() as u64;
            }
            while tr.poll(now).is_some() {}
            det.on_owd_sample(flow, now, owd(i, flow));
            if i % 50 == 0 {
                det.on_loss(flow, now);
            }
            tr.on_rtt_sample(flow, now, owd(i, flow) as u64);
        }
        made
    };
    // Warm-up: 60 s (past 2·M intervals, the skew fit window start and many TR windows).
    run(0, 300_000);
    let before = ALLOCATIONS.load(Ordering::Relaxed);
    let decisions = run(300_000, 600_000);
    let after = ALLOCATIONS.load(Ordering::Relaxed);
    assert!(decisions > 10, "decisions made while measured: {decisions}");
    assert_eq!(after - before, 0, "allocations during 60 s of samples");
}
