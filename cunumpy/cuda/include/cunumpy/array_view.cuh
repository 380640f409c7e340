// cunumpy/array_view.cuh: strided and C-contiguous array views for CUDA kernels.
//
// A kernel parameter (or a CudaStruct field) declared as Array2D<double> takes a CuPy
// array from Python: cunumpy packs its data pointer, shape and strides (counted in
// elements) and passes the view by value. Index it as a(i, j), like a[i, j] in the
// host kernel it mirrors:
//
//     #include <cunumpy/array_view.cuh>
//     extern "C" __global__ void scale_rows(Array2D<double> a, double factor) {
//         long long i = blockDim.x * (long long)blockIdx.x + threadIdx.x;
//         if (i >= a.shape[0]) return;
//         for (long long j = 0; j < a.shape[1]; ++j) a(i, j) *= factor;
//     }
//
// ArrayND<T> (N = 1..16) holds `T* data; long long shape[N]; long long strides[N];`
// and CArrayND<T> (C-contiguous, the last index fastest) `T* data; long long shape[N];`.
// cunumpy's packing relies on exactly these members, in this order, without padding;
// the static_asserts at the end check it. A CArrayND<T> converts to an ArrayND<T>.
//
// Compiled with -DCUNUMPY_BOUNDS_CHECK (debug mode adds it), every index is checked
// against the shape: an index out of bounds prints the axis and the index and traps,
// which the next synchronization reports as a CUDA error.
//
// Plain C++ apart from the __device__/__host__ qualifiers, so that the header also
// compiles on the CPU (the emulator of cunumpy.kernel_testing defines them empty, and
// CUNUMPY_EMULATION, so that a failed check there traps the launch, not the process).

#ifndef CUNUMPY_ARRAY_VIEW_CUH
#define CUNUMPY_ARRAY_VIEW_CUH

#if !defined(__CUDACC_RTC__) && !defined(__CUDACC__)
#include <cstdio>
#include <cstdlib>
#endif

#if defined(__CUDA_ARCH__) || defined(CUNUMPY_EMULATION)
#define CUNUMPY_VIEW_ABORT() __trap()
#else
#define CUNUMPY_VIEW_ABORT() __builtin_trap()
#endif

#ifdef CUNUMPY_BOUNDS_CHECK
#define CUNUMPY_CHECK_INDEX(index, axis, extent)                                        \
    do {                                                                                \
        long long cunumpy_index_ = (long long)(index);                                  \
        if (cunumpy_index_ < 0 || cunumpy_index_ >= (long long)(extent)) {              \
            printf("cunumpy bounds check: index %lld out of range [0, %lld) on axis %d\n", \
                   cunumpy_index_, (long long)(extent), (int)(axis));                   \
            CUNUMPY_VIEW_ABORT();                                                       \
        }                                                                               \
    } while (0)
#else
#define CUNUMPY_CHECK_INDEX(index, axis, extent) ((void)0)
#endif

namespace cunumpy_views {

// The offset of element (i0, i1, ...) from the strides, checking each index.
template <int N>
struct Offset {
    template <typename... Rest>
    __host__ __device__ static long long of(const long long* shape, const long long* step,
                                            int axis, long long first, Rest... rest) {
        CUNUMPY_CHECK_INDEX(first, axis, shape[axis]);
        return first * step[axis] + Offset<N - 1>::of(shape, step, axis + 1, rest...);
    }
};

template <>
struct Offset<0> {
    __host__ __device__ static long long of(const long long*, const long long*, int) {
        return 0;
    }
};

template <typename T, int N>
struct Strided {
    T* data;
    long long shape[N];
    long long strides[N];

    template <typename... Index>
    __host__ __device__ T& operator()(Index... index) const {
        static_assert(sizeof...(Index) == N, "an ArrayND view takes N indices");
        return data[Offset<N>::of(shape, strides, 0, (long long)index...)];
    }

    // The number of elements.
    __host__ __device__ long long size() const {
        long long n = 1;
        for (int axis = 0; axis < N; ++axis) n *= shape[axis];
        return n;
    }
};

template <typename T, int N>
struct Contiguous {
    T* data;
    long long shape[N];

    template <typename... Index>
    __host__ __device__ T& operator()(Index... index) const {
        static_assert(sizeof...(Index) == N, "a CArrayND view takes N indices");
        long long step[N];
        long long s = 1;
        for (int axis = N - 1; axis >= 0; --axis) {
            step[axis] = s;
            s *= shape[axis];
        }
        return data[Offset<N>::of(shape, step, 0, (long long)index...)];
    }

    __host__ __device__ long long size() const {
        long long n = 1;
        for (int axis = 0; axis < N; ++axis) n *= shape[axis];
        return n;
    }

    // The same elements as a strided view.
    __host__ __device__ operator Strided<T, N>() const {
        Strided<T, N> view;
        view.data = data;
        long long s = 1;
        for (int axis = N - 1; axis >= 0; --axis) {
            view.shape[axis] = shape[axis];
            view.strides[axis] = s;
            s *= shape[axis];
        }
        return view;
    }
};

}  // namespace cunumpy_views

template <typename T> using Array1D = cunumpy_views::Strided<T, 1>;
template <typename T> using Array2D = cunumpy_views::Strided<T, 2>;
template <typename T> using Array3D = cunumpy_views::Strided<T, 3>;
template <typename T> using Array4D = cunumpy_views::Strided<T, 4>;
template <typename T> using Array5D = cunumpy_views::Strided<T, 5>;
template <typename T> using Array6D = cunumpy_views::Strided<T, 6>;
template <typename T> using Array7D = cunumpy_views::Strided<T, 7>;
template <typename T> using Array8D = cunumpy_views::Strided<T, 8>;
template <typename T> using Array9D = cunumpy_views::Strided<T, 9>;
template <typename T> using Array10D = cunumpy_views::Strided<T, 10>;
template <typename T> using Array11D = cunumpy_views::Strided<T, 11>;
template <typename T> using Array12D = cunumpy_views::Strided<T, 12>;
template <typename T> using Array13D = cunumpy_views::Strided<T, 13>;
template <typename T> using Array14D = cunumpy_views::Strided<T, 14>;
template <typename T> using Array15D = cunumpy_views::Strided<T, 15>;
template <typename T> using Array16D = cunumpy_views::Strided<T, 16>;

template <typename T> using CArray1D = cunumpy_views::Contiguous<T, 1>;
template <typename T> using CArray2D = cunumpy_views::Contiguous<T, 2>;
template <typename T> using CArray3D = cunumpy_views::Contiguous<T, 3>;
template <typename T> using CArray4D = cunumpy_views::Contiguous<T, 4>;
template <typename T> using CArray5D = cunumpy_views::Contiguous<T, 5>;
template <typename T> using CArray6D = cunumpy_views::Contiguous<T, 6>;
template <typename T> using CArray7D = cunumpy_views::Contiguous<T, 7>;
template <typename T> using CArray8D = cunumpy_views::Contiguous<T, 8>;
template <typename T> using CArray9D = cunumpy_views::Contiguous<T, 9>;
template <typename T> using CArray10D = cunumpy_views::Contiguous<T, 10>;
template <typename T> using CArray11D = cunumpy_views::Contiguous<T, 11>;
template <typename T> using CArray12D = cunumpy_views::Contiguous<T, 12>;
template <typename T> using CArray13D = cunumpy_views::Contiguous<T, 13>;
template <typename T> using CArray14D = cunumpy_views::Contiguous<T, 14>;
template <typename T> using CArray15D = cunumpy_views::Contiguous<T, 15>;
template <typename T> using CArray16D = cunumpy_views::Contiguous<T, 16>;

// The layout cunumpy packs from Python: 8 bytes per pointer, shape and stride entry.
static_assert(sizeof(Array1D<double>) == 24, "Array1D layout");
static_assert(sizeof(Array3D<float>) == 56, "Array3D layout");
static_assert(sizeof(Array16D<char>) == 8 * 33, "Array16D layout");
static_assert(sizeof(CArray2D<double>) == 24, "CArray2D layout");
static_assert(sizeof(CArray16D<int>) == 8 * 17, "CArray16D layout");

#endif  // CUNUMPY_ARRAY_VIEW_CUH
