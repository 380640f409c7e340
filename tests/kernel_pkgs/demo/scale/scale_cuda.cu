// The CUDA port of scale_kernels.scale.
extern "C" __global__ void scale(const double* x, double a, double* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = a * x[i];
}
