// cunumpy/atomic.cuh: atomic additions for CUDA kernels (deposits, histograms, counters).
//
//     #include <cunumpy/atomic.cuh>
//     extern "C" __global__ void deposit(const long long* cell, const double* w,
//                                        double* rho, long long n) {
//         long long p = blockIdx.x * (long long)blockDim.x + threadIdx.x;
//         if (p < n) cunumpy_atomic_add(rho + cell[p], w[p]);
//     }
//
// cunumpy_atomic_add(p, v) adds v to *p and returns the old value, for double, float,
// int, unsigned int, long long and unsigned long long. cunumpy_atomic_add_2d and
// cunumpy_atomic_add_3d do the same for the cell (i, j) or (i, j, k) of a C-contiguous
// array of shape (n0, n1) or (n0, n1, n2), given its trailing extents.

#ifndef CUNUMPY_ATOMIC_CUH
#define CUNUMPY_ATOMIC_CUH

__device__ __forceinline__ double cunumpy_atomic_add(double* p, double v) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ < 600
    // Before sm_60 there is no double atomicAdd: a compare-and-swap loop on the bits.
    unsigned long long* bits = reinterpret_cast<unsigned long long*>(p);
    unsigned long long seen = *bits, expected;
    do {
        expected = seen;
        seen = atomicCAS(bits, expected,
                         __double_as_longlong(v + __longlong_as_double(expected)));
    } while (seen != expected);
    return __longlong_as_double(seen);
#else
    return atomicAdd(p, v);
#endif
}

__device__ __forceinline__ float cunumpy_atomic_add(float* p, float v) { return atomicAdd(p, v); }

__device__ __forceinline__ int cunumpy_atomic_add(int* p, int v) { return atomicAdd(p, v); }

__device__ __forceinline__ unsigned int cunumpy_atomic_add(unsigned int* p, unsigned int v) {
    return atomicAdd(p, v);
}

__device__ __forceinline__ unsigned long long cunumpy_atomic_add(unsigned long long* p,
                                                                unsigned long long v) {
    return atomicAdd(p, v);
}

// Two's complement: adding the unsigned bit pattern adds the signed value.
__device__ __forceinline__ long long cunumpy_atomic_add(long long* p, long long v) {
    return (long long)atomicAdd(reinterpret_cast<unsigned long long*>(p),
                                (unsigned long long)v);
}

// data[i, j] += v for a C-contiguous array of shape (n0, n1).
template <typename T>
__device__ __forceinline__ T cunumpy_atomic_add_2d(T* data, long long n1, long long i,
                                                   long long j, T v) {
    return cunumpy_atomic_add(data + (i * n1 + j), v);
}

// data[i, j, k] += v for a C-contiguous array of shape (n0, n1, n2).
template <typename T>
__device__ __forceinline__ T cunumpy_atomic_add_3d(T* data, long long n1, long long n2,
                                                   long long i, long long j, long long k,
                                                   T v) {
    return cunumpy_atomic_add(data + ((i * n1 + j) * n2 + k), v);
}

// Plain overloads for the floating-point cells, so that v converts (an int literal, a
// float added to a double cell) where the templates above could not deduce T.
__device__ __forceinline__ double cunumpy_atomic_add_2d(double* data, long long n1, long long i,
                                                        long long j, double v) {
    return cunumpy_atomic_add(data + (i * n1 + j), v);
}

__device__ __forceinline__ float cunumpy_atomic_add_2d(float* data, long long n1, long long i,
                                                       long long j, float v) {
    return cunumpy_atomic_add(data + (i * n1 + j), v);
}

__device__ __forceinline__ double cunumpy_atomic_add_3d(double* data, long long n1, long long n2,
                                                        long long i, long long j, long long k,
                                                        double v) {
    return cunumpy_atomic_add(data + ((i * n1 + j) * n2 + k), v);
}

__device__ __forceinline__ float cunumpy_atomic_add_3d(float* data, long long n1, long long n2,
                                                       long long i, long long j, long long k,
                                                       float v) {
    return cunumpy_atomic_add(data + ((i * n1 + j) * n2 + k), v);
}

#endif  // CUNUMPY_ATOMIC_CUH
