// cunumpy/morton.cuh: Morton (Z-order) keys inside kernels.
//
//     #include <cunumpy/morton.cuh>
//     extern "C" __global__ void keys2d(const double* pos, unsigned long long* key, long long n,
//                                       double x0, double y0, double sx, double sy, int levels) {
//         long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x;
//         if (i >= n) return;
//         key[i] = cunumpy_morton_key2(pos[2 * i], pos[2 * i + 1], x0, y0, sx, sy, levels);
//     }
//
// A key interleaves the bits of a point's integer cell along each axis: bit b of axis a
// becomes bit ndim * b + a of the key (axis 0 lowest). Sorting by key orders points along
// a Z-shaped curve, and the points of any quadtree/octree node form one contiguous range.
// The cell along an axis is floor((x - lower) * scale), clipped to [0, 2^levels - 1], the
// same operations in the same order as cunumpy.morton_keys on the host, so the keys are
// bit-identical. 2-D keys use up to 32 bits per axis, 3-D keys up to 21.
// Integer and double arithmetic only: the header also compiles as C++.

#ifndef CUNUMPY_MORTON_CUH
#define CUNUMPY_MORTON_CUH

#if !defined(__CUDACC_RTC__) && !defined(__CUDACC__)
#include <cmath>  // compiled as C++ on the CPU
using std::floor;
#endif

// Bit b of v (b < bits) moved to bit `stride` * b.
__host__ __device__ __forceinline__ unsigned long long cunumpy_morton_spread(
    unsigned long long v, int stride, int bits) {
    unsigned long long out = 0ull;
    for (int b = 0; b < bits; ++b) out |= ((v >> b) & 1ull) << (stride * b);
    return out;
}

// Bit `stride` * b of v moved back to bit b.
__host__ __device__ __forceinline__ unsigned long long cunumpy_morton_gather(
    unsigned long long v, int stride, int bits) {
    unsigned long long out = 0ull;
    for (int b = 0; b < bits; ++b) out |= ((v >> (stride * b)) & 1ull) << b;
    return out;
}

// The low 32 bits of v on the even bits, and back; the low 21 bits on every third bit.
__host__ __device__ __forceinline__ unsigned long long cunumpy_morton_spread2(unsigned long long v) {
    return cunumpy_morton_spread(v, 2, 32);
}
__host__ __device__ __forceinline__ unsigned long long cunumpy_morton_compact2(unsigned long long v) {
    return cunumpy_morton_gather(v, 2, 32);
}
__host__ __device__ __forceinline__ unsigned long long cunumpy_morton_spread3(unsigned long long v) {
    return cunumpy_morton_spread(v, 3, 21);
}
__host__ __device__ __forceinline__ unsigned long long cunumpy_morton_compact3(unsigned long long v) {
    return cunumpy_morton_gather(v, 3, 21);
}

// The key of integer cells (ix, iy) and (ix, iy, iz), as cunumpy.morton_encode.
__host__ __device__ __forceinline__ unsigned long long cunumpy_morton_encode2(
    unsigned long long ix, unsigned long long iy) {
    return cunumpy_morton_spread2(ix) | (cunumpy_morton_spread2(iy) << 1);
}
__host__ __device__ __forceinline__ unsigned long long cunumpy_morton_encode3(
    unsigned long long ix, unsigned long long iy, unsigned long long iz) {
    return cunumpy_morton_spread3(ix) | (cunumpy_morton_spread3(iy) << 1) |
           (cunumpy_morton_spread3(iz) << 2);
}

// The cell of x along one axis: floor((x - lower) * scale) clipped to [0, 2^levels - 1].
__host__ __device__ __forceinline__ unsigned long long cunumpy_morton_cell(double x, double lower,
                                                                          double scale,
                                                                          int levels) {
    const double last = (double)((1ull << levels) - 1ull);
    double cell = floor((x - lower) * scale);
    if (cell < 0.0) cell = 0.0;
    if (cell > last) cell = last;
    return (unsigned long long)cell;
}

// The key of a point, as cunumpy.morton_keys with scales from cunumpy.morton_scales.
__host__ __device__ __forceinline__ unsigned long long cunumpy_morton_key2(
    double x, double y, double lower_x, double lower_y, double scale_x, double scale_y,
    int levels) {
    return cunumpy_morton_encode2(cunumpy_morton_cell(x, lower_x, scale_x, levels),
                                  cunumpy_morton_cell(y, lower_y, scale_y, levels));
}
__host__ __device__ __forceinline__ unsigned long long cunumpy_morton_key3(
    double x, double y, double z, double lower_x, double lower_y, double lower_z,
    double scale_x, double scale_y, double scale_z, int levels) {
    return cunumpy_morton_encode3(cunumpy_morton_cell(x, lower_x, scale_x, levels),
                                  cunumpy_morton_cell(y, lower_y, scale_y, levels),
                                  cunumpy_morton_cell(z, lower_z, scale_z, levels));
}

#endif  // CUNUMPY_MORTON_CUH
