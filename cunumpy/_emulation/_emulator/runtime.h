// cunumpy's CPU emulation of CUDA C: the built-ins as plain C++. The threads of a block
// run one after another; with __syncthreads they run as fibers (ucontext) that all reach
// each barrier before any goes on. Emulated, not a GPU: races and warps do not show.
#define _XOPEN_SOURCE 700
#include <math.h>
#include <setjmp.h>
#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <ucontext.h>
#include <algorithm>
#include <type_traits>
#include <utility>
#define CUNUMPY_EMULATION 1
#define __device__
#define __global__
#define __host__
#define __forceinline__ inline
#define __noinline__
#define __restrict__ __restrict
#define __launch_bounds__(...)
#define __align__(n) alignas(n)
#define __shared__ static
#define __constant__ static
struct dim3 {
    unsigned int x, y, z;
    dim3(unsigned int x_ = 1, unsigned int y_ = 1, unsigned int z_ = 1) : x(x_), y(y_), z(z_) {}
};
typedef dim3 uint3;
// CUDA's vector types and their make_ functions
#define CUNUMPY_VECTOR(T, N)                                                        \
    struct N##2 { T x, y; };                                                        \
    struct N##3 { T x, y, z; };                                                     \
    struct N##4 { T x, y, z, w; };                                                  \
    inline N##2 make_##N##2(T x, T y) { return N##2{x, y}; }                       \
    inline N##3 make_##N##3(T x, T y, T z) { return N##3{x, y, z}; }               \
    inline N##4 make_##N##4(T x, T y, T z, T w) { return N##4{x, y, z, w}; }
CUNUMPY_VECTOR(float, float)
CUNUMPY_VECTOR(double, double)
CUNUMPY_VECTOR(int, int)
CUNUMPY_VECTOR(long long, longlong)
static dim3 threadIdx, blockIdx, blockDim, gridDim;
static const int warpSize = 32;
static void* cunumpy_dynamic_shared = 0;
static int cunumpy_trapped = 0;
static sigjmp_buf cunumpy_jump;
// fibers
struct cunumpy_fiber { ucontext_t context; char* stack; int done; };
static ucontext_t cunumpy_scheduler;
static cunumpy_fiber* cunumpy_fibers = 0;
static unsigned int cunumpy_current = 0;
static const size_t cunumpy_stack_bytes = 256 * 1024;
inline void __syncthreads() {
    if (cunumpy_fibers) swapcontext(&cunumpy_fibers[cunumpy_current].context, &cunumpy_scheduler);
}
inline void __threadfence() {}
inline void __threadfence_block() {}
[[noreturn]] inline void __trap() {
    cunumpy_trapped = 1;
    fflush(stdout);
    if (cunumpy_fibers) {
        cunumpy_fibers[cunumpy_current].done = 1;
        setcontext(&cunumpy_scheduler);
    }
    siglongjmp(cunumpy_jump, 1);
}
// SIGFPE (an integer division by zero, or INT_MIN / -1): a GPU gives an undefined value,
// the CPU traps; the launch stops as at __trap(), and Python names the kernel and the thread
static int cunumpy_fpe_code = 0;
static unsigned int cunumpy_fpe_where[6];
static int cunumpy_launching = 0;
static struct sigaction cunumpy_old_fpe;
extern "C" int cunumpy_fpe(unsigned int* where) {
    memcpy(where, cunumpy_fpe_where, sizeof cunumpy_fpe_where);
    return cunumpy_fpe_code;
}
static void cunumpy_on_fpe(int, siginfo_t* info, void*) {
    if (!cunumpy_launching) {  // not this library's launch: the fault again, under the old handler
        sigaction(SIGFPE, &cunumpy_old_fpe, 0);
        return;
    }
    cunumpy_fpe_code = info->si_code > 0 ? info->si_code : -1;  // nonzero: a SIGFPE stopped the launch
    const unsigned int where[6] = {blockIdx.x, blockIdx.y, blockIdx.z, threadIdx.x, threadIdx.y, threadIdx.z};
    memcpy(cunumpy_fpe_where, where, sizeof where);
    __trap();
}
// inline PTX, asm("..."): the instructions kernels use run (trap; membar and fence order
// nothing, as one thread runs at a time); any other stops the launch, and Python names it
static char cunumpy_ptx[256];
extern "C" const char* cunumpy_unsupported_ptx() { return cunumpy_ptx; }
inline void cunumpy_inline_ptx(const char* text) {
    const char* p = text;
    while (*p == ' ' || *p == '"') ++p;
    if (!strncmp(p, "trap", 4)) __trap();
    if (!strncmp(p, "membar", 6) || !strncmp(p, "fence", 5)) return;
    snprintf(cunumpy_ptx, sizeof cunumpy_ptx, "%s", text);
    __trap();
}
#define asm(...) cunumpy_inline_ptx(#__VA_ARGS__)
template <class T> inline T __ldg(const T* p) { return *p; }
inline double rsqrt(double v) { return 1.0 / sqrt(v); }
inline float rsqrtf(float v) { return 1.0f / sqrtf(v); }
inline float __fdividef(float a, float b) { return a / b; }
inline float __expf(float v) { return expf(v); }
inline float __logf(float v) { return logf(v); }
inline float __sinf(float v) { return sinf(v); }
inline float __cosf(float v) { return cosf(v); }
inline float saturatef(float v) { return v < 0 ? 0.0f : (v > 1 ? 1.0f : v); }
// by value: decltype(a < b ? a : b) of two lvalues is a reference to a parameter
template <class A, class B> inline typename std::common_type<A, B>::type min(A a, B b) { return b < a ? b : a; }
template <class A, class B> inline typename std::common_type<A, B>::type max(A a, B b) { return a < b ? b : a; }
// atomics: plain read-modify-write (one thread runs at a time)
template <class T> inline T atomicAdd(T* p, T v) { T o = *p; *p = o + v; return o; }
template <class T> inline T atomicSub(T* p, T v) { T o = *p; *p = o - v; return o; }
template <class T> inline T atomicExch(T* p, T v) { T o = *p; *p = v; return o; }
template <class T> inline T atomicMin(T* p, T v) { T o = *p; if (v < o) *p = v; return o; }
template <class T> inline T atomicMax(T* p, T v) { T o = *p; if (o < v) *p = v; return o; }
template <class T> inline T atomicAnd(T* p, T v) { T o = *p; *p = o & v; return o; }
template <class T> inline T atomicOr(T* p, T v) { T o = *p; *p = o | v; return o; }
template <class T> inline T atomicCAS(T* p, T c, T v) { T o = *p; if (o == c) *p = v; return o; }
inline unsigned int atomicInc(unsigned int* p, unsigned int m) { unsigned int o = *p; *p = o >= m ? 0 : o + 1; return o; }
inline long long __double_as_longlong(double v) { long long r; memcpy(&r, &v, sizeof r); return r; }
inline double __longlong_as_double(long long v) { double r; memcpy(&r, &v, sizeof r); return r; }
inline int __float_as_int(float v) { int r; memcpy(&r, &v, sizeof r); return r; }
inline float __int_as_float(int v) { float r; memcpy(&r, &v, sizeof r); return r; }
// the launch machinery, used by the generated entry points
static void (*cunumpy_body)() = 0;
static void cunumpy_fiber_main() {
    cunumpy_body();
    cunumpy_fibers[cunumpy_current].done = 1;
}
static int cunumpy_run(void (*body)(), const unsigned int* g, const unsigned int* b, unsigned long long shared, int fibers) {
    cunumpy_trapped = 0;
    cunumpy_ptx[0] = 0;
    cunumpy_fpe_code = 0;
    struct sigaction on_fpe;
    memset(&on_fpe, 0, sizeof on_fpe);
    on_fpe.sa_sigaction = cunumpy_on_fpe;
    on_fpe.sa_flags = SA_SIGINFO | SA_NODEFER;
    sigemptyset(&on_fpe.sa_mask);
    sigaction(SIGFPE, &on_fpe, &cunumpy_old_fpe);
    cunumpy_launching = 1;
    cunumpy_body = body;
    gridDim = dim3(g[0], g[1], g[2]);
    blockDim = dim3(b[0], b[1], b[2]);
    cunumpy_dynamic_shared = calloc(shared + 16, 1);
    const unsigned int n = b[0] * b[1] * b[2];
    if (!fibers) {
        if (sigsetjmp(cunumpy_jump, 1) == 0) {
            for (unsigned int bz = 0; bz < g[2]; ++bz) for (unsigned int by = 0; by < g[1]; ++by)
            for (unsigned int bx = 0; bx < g[0]; ++bx) for (unsigned int t = 0; t < n; ++t) {
                blockIdx = dim3(bx, by, bz);
                threadIdx = dim3(t % b[0], (t / b[0]) % b[1], t / (b[0] * b[1]));
                body();
            }
        }
    } else {
        cunumpy_fibers = (cunumpy_fiber*)calloc(n, sizeof(cunumpy_fiber));
        for (unsigned int t = 0; t < n; ++t) cunumpy_fibers[t].stack = (char*)malloc(cunumpy_stack_bytes);
        for (unsigned int bz = 0; bz < g[2] && !cunumpy_trapped; ++bz) for (unsigned int by = 0; by < g[1] && !cunumpy_trapped; ++by)
        for (unsigned int bx = 0; bx < g[0] && !cunumpy_trapped; ++bx) {
            blockIdx = dim3(bx, by, bz);
            for (unsigned int t = 0; t < n; ++t) {
                cunumpy_fiber* f = &cunumpy_fibers[t];
                getcontext(&f->context);
                f->context.uc_stack.ss_sp = f->stack;
                f->context.uc_stack.ss_size = cunumpy_stack_bytes;
                f->context.uc_link = &cunumpy_scheduler;
                makecontext(&f->context, cunumpy_fiber_main, 0);
                f->done = 0;
            }
            for (int running = 1; running && !cunumpy_trapped;) {  // one round: every thread to its next barrier
                running = 0;
                for (unsigned int t = 0; t < n && !cunumpy_trapped; ++t) {
                    if (cunumpy_fibers[t].done) continue;
                    cunumpy_current = t;
                    threadIdx = dim3(t % b[0], (t / b[0]) % b[1], t / (b[0] * b[1]));
                    swapcontext(&cunumpy_scheduler, &cunumpy_fibers[t].context);
                    if (!cunumpy_fibers[t].done) running = 1;
                }
            }
        }
        for (unsigned int t = 0; t < n; ++t) free(cunumpy_fibers[t].stack);
        free(cunumpy_fibers);
        cunumpy_fibers = 0;
    }
    cunumpy_launching = 0;
    sigaction(SIGFPE, &cunumpy_old_fpe, 0);
    free(cunumpy_dynamic_shared);
    cunumpy_dynamic_shared = 0;
    fflush(stdout);
    return cunumpy_trapped;
}
template <class F> struct cunumpy_signature;
template <class... P> struct cunumpy_signature<void (*)(P...)> {
    static const int arity = sizeof...(P);
    template <size_t... I> static void call(void (*f)(P...), void** a, std::index_sequence<I...>) {
        f(*static_cast<typename std::decay<P>::type*>(a[I])...);
    }
    // per parameter: size, and kind 0 pointer, 1 signed, 2 unsigned, 3 floating, 4 bool, 5 other
    static void info(long long* sizes, int* kinds) {
        long long s[] = {0, (long long)sizeof(typename std::decay<P>::type)...};
        int k[] = {0, (std::is_pointer<typename std::decay<P>::type>::value ? 0
                   : std::is_same<typename std::decay<P>::type, bool>::value ? 4
                   : std::is_floating_point<typename std::decay<P>::type>::value ? 3
                   : std::is_integral<typename std::decay<P>::type>::value
                         ? (std::is_signed<typename std::decay<P>::type>::value ? 1 : 2) : 5)...};
        for (int i = 0; i < (int)sizeof...(P); ++i) { sizes[i] = s[i + 1]; kinds[i] = k[i + 1]; }
    }
};
static void** cunumpy_argv = 0;
