// The CUDA port of count: block-local histograms in shared memory, then atomics.
extern "C" __global__ void count(const int* bins, int* hist, int n) {
    __shared__ int local[16];
    int t = threadIdx.x;
    if (t < 16) local[t] = 0;
    __syncthreads();
    int i = blockIdx.x * blockDim.x + t;
    if (i < n) atomicAdd(&local[bins[i]], 1);
    __syncthreads();
    if (t < 16) atomicAdd(&hist[t], local[t]);
}
