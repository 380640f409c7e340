// cunumpy/reduce.cuh: reductions over the lanes of a warp and the threads of a block.
//
//     #include <cunumpy/reduce.cuh>
//     extern "C" __global__ void kinetic_energy(const double* v, long long n, double mass,
//                                               double* energy) {
//         long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x;
//         double e = i < n ? 0.5 * mass * v[i] * v[i] : 0.0;  // no early return
//         cunumpy_block_sum_to(energy, e);                     // one atomic add per block
//     }
//
// Collective: every thread of the block calls a block function (threads without a value
// pass the identity: 0 for a sum, a value of the range for min/max), and every lane named
// in a warp function's mask calls it with the same mask. Each caller gets the result.
// Blocks may be 1-D to 3-D of any size (the last warp may be partial). Types: those of the
// shuffle intrinsics (int, unsigned, long long, unsigned long long, float, double).
// The warp is 32 lanes (NVIDIA); the header is not written for 64-lane AMD wavefronts.

#ifndef CUNUMPY_REDUCE_CUH
#define CUNUMPY_REDUCE_CUH

#include <cunumpy/atomic.cuh>

#define CUNUMPY_WARP_SIZE 32
#define CUNUMPY_FULL_WARP_MASK 0xffffffffu

// The operations: a callable object combining two partial results.
struct cunumpy_sum_op {
    template <class T>
    __device__ __forceinline__ T operator()(T a, T b) const { return a + b; }
};
struct cunumpy_min_op {
    template <class T>
    __device__ __forceinline__ T operator()(T a, T b) const { return b < a ? b : a; }
};
struct cunumpy_max_op {
    template <class T>
    __device__ __forceinline__ T operator()(T a, T b) const { return a < b ? b : a; }
};

// This thread's index in its block (x fastest), and the threads of the block.
__device__ __forceinline__ int cunumpy_block_thread() {
    return (int)(threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z));
}
__device__ __forceinline__ int cunumpy_block_threads() {
    return (int)(blockDim.x * blockDim.y * blockDim.z);
}

// The lanes of this thread's warp that exist (all 32 but in a partial last warp).
__device__ __forceinline__ unsigned cunumpy_block_warp_mask() {
    const int first = cunumpy_block_thread() / CUNUMPY_WARP_SIZE * CUNUMPY_WARP_SIZE;
    const int lanes = cunumpy_block_threads() - first;
    return lanes >= CUNUMPY_WARP_SIZE ? CUNUMPY_FULL_WARP_MASK : (1u << lanes) - 1u;
}

// op over v of the lanes in mask; every lane of mask gets the result.
template <class T, class Op>
__device__ __forceinline__ T cunumpy_warp_reduce(T v, Op op,
                                                 unsigned mask = CUNUMPY_FULL_WARP_MASK) {
    if (mask == CUNUMPY_FULL_WARP_MASK) {
        // butterfly: after step k each lane holds the result of its group of 2^(k+1) lanes
        for (int offset = CUNUMPY_WARP_SIZE / 2; offset > 0; offset /= 2)
            v = op(v, __shfl_xor_sync(mask, v, offset));
        return v;
    }
    // any mask: every lane reads the values of the lanes in mask, in lane order
    unsigned rest = mask;
    T result = __shfl_sync(mask, v, __ffs(rest) - 1);
    for (rest &= rest - 1; rest != 0u; rest &= rest - 1)
        result = op(result, __shfl_sync(mask, v, __ffs(rest) - 1));
    return result;
}

template <class T>
__device__ __forceinline__ T cunumpy_warp_sum(T v, unsigned mask = CUNUMPY_FULL_WARP_MASK) {
    return cunumpy_warp_reduce(v, cunumpy_sum_op(), mask);
}
template <class T>
__device__ __forceinline__ T cunumpy_warp_min(T v, unsigned mask = CUNUMPY_FULL_WARP_MASK) {
    return cunumpy_warp_reduce(v, cunumpy_min_op(), mask);
}
template <class T>
__device__ __forceinline__ T cunumpy_warp_max(T v, unsigned mask = CUNUMPY_FULL_WARP_MASK) {
    return cunumpy_warp_reduce(v, cunumpy_max_op(), mask);
}

// op over v of every thread of the block; every thread gets the result. Uses 32 values of
// static shared memory per type and synchronizes the block twice; call it as often as needed.
template <class T, class Op>
__device__ T cunumpy_block_reduce(T v, Op op) {
    __shared__ T cunumpy_warp_results[CUNUMPY_WARP_SIZE];
    const int thread = cunumpy_block_thread();
    const int n_warps = (cunumpy_block_threads() + CUNUMPY_WARP_SIZE - 1) / CUNUMPY_WARP_SIZE;
    v = cunumpy_warp_reduce(v, op, cunumpy_block_warp_mask());
    __syncthreads();  // the readers of a previous call are done
    if (thread % CUNUMPY_WARP_SIZE == 0) cunumpy_warp_results[thread / CUNUMPY_WARP_SIZE] = v;
    __syncthreads();
    T result = cunumpy_warp_results[0];
    for (int w = 1; w < n_warps; ++w) result = op(result, cunumpy_warp_results[w]);
    return result;
}

template <class T>
__device__ T cunumpy_block_sum(T v) { return cunumpy_block_reduce(v, cunumpy_sum_op()); }
template <class T>
__device__ T cunumpy_block_min(T v) { return cunumpy_block_reduce(v, cunumpy_min_op()); }
template <class T>
__device__ T cunumpy_block_max(T v) { return cunumpy_block_reduce(v, cunumpy_max_op()); }

// *out += the block's sum of v: one atomic add per block (zero *out before the launch for
// a sum over the grid). For the types of cunumpy_atomic_add.
template <class T>
__device__ __forceinline__ void cunumpy_block_sum_to(T* out, T v) {
    const T total = cunumpy_block_sum(v);
    if (cunumpy_block_thread() == 0) cunumpy_atomic_add(out, total);
}

#endif  // CUNUMPY_REDUCE_CUH
