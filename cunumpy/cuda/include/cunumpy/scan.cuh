// cunumpy/scan.cuh: prefix sums over a warp and a block (compaction, binning).
//
//     #include <cunumpy/scan.cuh>
//     extern "C" __global__ void keep_positive(const double* x, double* out, int* kept, int n) {
//         int i = threadIdx.x;                        // one block of n threads
//         int keep = i < n && x[i] > 0.0;
//         int slot = cunumpy_block_exclusive_sum(keep);  // where this thread writes
//         if (keep) out[slot] = x[i];
//         if (i == n - 1) *kept = slot + keep;
//     }
//
// The order is the thread's index in the block (x fastest), or, for a warp function, the
// lane order of the lanes in mask. The rules of reduce.cuh apply: block functions are
// called by every thread of the block (pass 0 for no value), warp functions by every lane
// of mask with the same mask.

#ifndef CUNUMPY_SCAN_CUH
#define CUNUMPY_SCAN_CUH

#include <cunumpy/reduce.cuh>

// The sum of v over the lanes of mask up to and including this lane.
template <class T>
__device__ __forceinline__ T cunumpy_warp_inclusive_sum(T v,
                                                        unsigned mask = CUNUMPY_FULL_WARP_MASK) {
    const int lane = cunumpy_block_thread() % CUNUMPY_WARP_SIZE;
    if ((mask & (mask + 1u)) == 0u) {
        // lanes 0..k-1: each step adds the value `offset` lanes below, which is in mask
        for (int offset = 1; offset < CUNUMPY_WARP_SIZE; offset *= 2) {
            const T below = __shfl_up_sync(mask, v, offset);
            if (lane >= offset) v += below;
        }
        return v;
    }
    T sum = T(0);
    for (unsigned rest = mask; rest != 0u; rest &= rest - 1) {
        const int source = __ffs(rest) - 1;
        const T item = __shfl_sync(mask, v, source);
        if (source <= lane) sum += item;
    }
    return sum;
}

// The inclusive sum of the lane before this one in mask (0 for the first lane): exact,
// not the inclusive sum minus v.
template <class T>
__device__ __forceinline__ T cunumpy_warp_exclusive_sum(T v,
                                                        unsigned mask = CUNUMPY_FULL_WARP_MASK) {
    const int lane = cunumpy_block_thread() % CUNUMPY_WARP_SIZE;
    const T inclusive = cunumpy_warp_inclusive_sum(v, mask);
    const unsigned before = mask & ((1u << lane) - 1u);
    const int source = before == 0u ? lane : 31 - __clz(before);
    const T previous = __shfl_sync(mask, inclusive, source);
    return before == 0u ? T(0) : previous;
}

// The block's prefix sum of v in thread order, inclusive or exclusive. Uses 32 values of
// static shared memory per type and synchronizes the block twice.
template <class T, bool Exclusive>
__device__ T cunumpy_block_scan_sum(T v) {
    __shared__ T cunumpy_warp_totals[CUNUMPY_WARP_SIZE];
    const int thread = cunumpy_block_thread();
    const int warp = thread / CUNUMPY_WARP_SIZE;
    const unsigned mask = cunumpy_block_warp_mask();
    const T inclusive = cunumpy_warp_inclusive_sum(v, mask);
    const T within = Exclusive ? cunumpy_warp_exclusive_sum(v, mask) : inclusive;
    __syncthreads();  // the readers of a previous call are done
    if (thread % CUNUMPY_WARP_SIZE == 31 - __clz(mask)) cunumpy_warp_totals[warp] = inclusive;
    __syncthreads();
    T offset = T(0);
    for (int w = 0; w < warp; ++w) offset += cunumpy_warp_totals[w];
    return offset + within;
}

template <class T>
__device__ T cunumpy_block_inclusive_sum(T v) { return cunumpy_block_scan_sum<T, false>(v); }
template <class T>
__device__ T cunumpy_block_exclusive_sum(T v) { return cunumpy_block_scan_sum<T, true>(v); }

#endif  // CUNUMPY_SCAN_CUH
