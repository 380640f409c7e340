// cunumpy/random.cuh: counter-based random numbers (Philox4x32-10) inside kernels.
//
//     #include <cunumpy/random.cuh>
//     extern "C" __global__ void thermalize(double* v, long long n, unsigned long long seed,
//                                           unsigned long long step, double v_th) {
//         long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x;
//         if (i >= n) return;
//         v[i] = v_th * cunumpy_normal(seed, (unsigned long long)i, step);
//     }
//
// A counter-based generator keeps no state: its numbers are a function of a key (the
// seed), a stream (e.g. the particle's index) and a counter (e.g. the time step), so they
// do not depend on the launch shape or on the order of the threads, and the host computes
// the same ones. One call of Philox4x32-10 (Salmon et al., SC'11; as in Random123 and
// cuRAND) maps the 128-bit counter (counter low, counter high, stream low, stream high) and
// the 64-bit key (seed low, seed high) to four 32-bit words. A uniform double takes two
// words (the first the high half) and keeps 53 bits: k * 2^-53 in [0, 1). Normal numbers
// use the Box-Muller transform of two uniforms u0, u1: sqrt(-2 log(1 - u0)) times
// cos(2 pi u1) and sin(2 pi u1); the last bits may differ from the host's math library.
//
// Integer arithmetic only (log, sqrt, sin and cos for normals), so the header also
// compiles as C++ for the CPU emulator.

#ifndef CUNUMPY_RANDOM_CUH
#define CUNUMPY_RANDOM_CUH

#if !defined(__CUDACC_RTC__) && !defined(__CUDACC__)
#include <cmath>  // compiled as C++ on the CPU
using std::cos;
using std::log;
using std::sin;
using std::sqrt;
#endif

struct cunumpy_u32x4 {
    unsigned int v[4];
};

// The Philox4x32 multipliers and the Weyl increments of the key (Random123's constants).
#define CUNUMPY_PHILOX_M0 0xD2511F53u
#define CUNUMPY_PHILOX_M1 0xCD9E8D57u
#define CUNUMPY_PHILOX_W0 0x9E3779B9u
#define CUNUMPY_PHILOX_W1 0xBB67AE85u

// Ten rounds of Philox4x32 on `counter` with the key (key0, key1).
__host__ __device__ __forceinline__ cunumpy_u32x4 cunumpy_philox4x32_10(cunumpy_u32x4 counter,
                                                                       unsigned int key0,
                                                                       unsigned int key1) {
    unsigned int x0 = counter.v[0], x1 = counter.v[1], x2 = counter.v[2], x3 = counter.v[3];
    for (int round = 0; round < 10; ++round) {
        const unsigned long long product0 = (unsigned long long)CUNUMPY_PHILOX_M0 * x0;
        const unsigned long long product1 = (unsigned long long)CUNUMPY_PHILOX_M1 * x2;
        const unsigned int high0 = (unsigned int)(product0 >> 32);
        const unsigned int high1 = (unsigned int)(product1 >> 32);
        const unsigned int y0 = high1 ^ x1 ^ key0;
        const unsigned int y2 = high0 ^ x3 ^ key1;
        x1 = (unsigned int)product1;
        x3 = (unsigned int)product0;
        x0 = y0;
        x2 = y2;
        key0 += CUNUMPY_PHILOX_W0;
        key1 += CUNUMPY_PHILOX_W1;
    }
    cunumpy_u32x4 out;
    out.v[0] = x0;
    out.v[1] = x1;
    out.v[2] = x2;
    out.v[3] = x3;
    return out;
}

// The 128 random bits of (seed, stream, counter).
__host__ __device__ __forceinline__ cunumpy_u32x4 cunumpy_random_bits(unsigned long long seed,
                                                                     unsigned long long stream,
                                                                     unsigned long long counter) {
    cunumpy_u32x4 block;
    block.v[0] = (unsigned int)(counter & 0xffffffffull);
    block.v[1] = (unsigned int)(counter >> 32);
    block.v[2] = (unsigned int)(stream & 0xffffffffull);
    block.v[3] = (unsigned int)(stream >> 32);
    return cunumpy_philox4x32_10(block, (unsigned int)(seed & 0xffffffffull),
                                 (unsigned int)(seed >> 32));
}

// A double in [0, 1) from two words: the top 53 of their 64 bits, times 2^-53.
__host__ __device__ __forceinline__ double cunumpy_u64_to_uniform(unsigned int high,
                                                                 unsigned int low) {
    const unsigned long long word = ((unsigned long long)high << 32) | (unsigned long long)low;
    return (double)(word >> 11) / 9007199254740992.0;
}

// Two uniform doubles in [0, 1): words (0, 1) and (2, 3) of the random bits.
__host__ __device__ __forceinline__ void cunumpy_uniform2(unsigned long long seed,
                                                         unsigned long long stream,
                                                         unsigned long long counter, double* u0,
                                                         double* u1) {
    const cunumpy_u32x4 bits = cunumpy_random_bits(seed, stream, counter);
    *u0 = cunumpy_u64_to_uniform(bits.v[0], bits.v[1]);
    *u1 = cunumpy_u64_to_uniform(bits.v[2], bits.v[3]);
}

// The first of cunumpy_uniform2.
__host__ __device__ __forceinline__ double cunumpy_uniform(unsigned long long seed,
                                                          unsigned long long stream,
                                                          unsigned long long counter) {
    const cunumpy_u32x4 bits = cunumpy_random_bits(seed, stream, counter);
    return cunumpy_u64_to_uniform(bits.v[0], bits.v[1]);
}

// Two independent standard normal doubles (Box-Muller; 1 - u0 is in (0, 1], log finite).
__host__ __device__ __forceinline__ void cunumpy_normal2(unsigned long long seed,
                                                        unsigned long long stream,
                                                        unsigned long long counter, double* z0,
                                                        double* z1) {
    double u0, u1;
    cunumpy_uniform2(seed, stream, counter, &u0, &u1);
    const double radius = sqrt(-2.0 * log(1.0 - u0));
    const double angle = 6.283185307179586 * u1;
    *z0 = radius * cos(angle);
    *z1 = radius * sin(angle);
}

// The first of cunumpy_normal2.
__host__ __device__ __forceinline__ double cunumpy_normal(unsigned long long seed,
                                                         unsigned long long stream,
                                                         unsigned long long counter) {
    double z0, z1;
    cunumpy_normal2(seed, stream, counter, &z0, &z1);
    return z0;
}

#endif  // CUNUMPY_RANDOM_CUH
