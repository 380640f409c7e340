// cunumpy/index.cuh: thread-index helpers for CUDA kernels.
//
//     #include <cunumpy/index.cuh>
//     extern "C" __global__ void axpy(double a, const double* x, double* y, long long n) {
//         CUNUMPY_THREAD_1D(i, n);  // declares long long i; threads with i >= n return
//         y[i] += a * x[i];
//     }
//
// Launch with n_threads=n (or (ni, nj), (ni, nj, nk) for the 2-D and 3-D forms). The
// indices are long long, like the shape and strides of the array views, so that they
// address arrays of more than 2**31 elements.

#ifndef CUNUMPY_INDEX_CUH
#define CUNUMPY_INDEX_CUH

// This thread's global index along x, y or z.
#define CUNUMPY_GLOBAL_INDEX_X() ((long long)blockIdx.x * blockDim.x + threadIdx.x)
#define CUNUMPY_GLOBAL_INDEX_Y() ((long long)blockIdx.y * blockDim.y + threadIdx.y)
#define CUNUMPY_GLOBAL_INDEX_Z() ((long long)blockIdx.z * blockDim.z + threadIdx.z)

// Declare the index (or indices) and return from threads outside the range.
#define CUNUMPY_THREAD_1D(i, n)               \
    const long long i = CUNUMPY_GLOBAL_INDEX_X(); \
    if (i >= (long long)(n)) return

#define CUNUMPY_THREAD_2D(i, j, ni, nj)       \
    const long long i = CUNUMPY_GLOBAL_INDEX_X(); \
    const long long j = CUNUMPY_GLOBAL_INDEX_Y(); \
    if (i >= (long long)(ni) || j >= (long long)(nj)) return

#define CUNUMPY_THREAD_3D(i, j, k, ni, nj, nk)                                   \
    const long long i = CUNUMPY_GLOBAL_INDEX_X();                                \
    const long long j = CUNUMPY_GLOBAL_INDEX_Y();                                \
    const long long k = CUNUMPY_GLOBAL_INDEX_Z();                                \
    if (i >= (long long)(ni) || j >= (long long)(nj) || k >= (long long)(nk)) return

// A grid-stride loop: each thread takes i, i + (all threads of the grid), ... below n,
// so any grid covers the range (e.g. grid= a fixed number of blocks).
#define CUNUMPY_GRID_STRIDE_1D(i, n)                                       \
    for (long long i = CUNUMPY_GLOBAL_INDEX_X(); i < (long long)(n);       \
         i += (long long)gridDim.x * blockDim.x)

#endif  // CUNUMPY_INDEX_CUH
