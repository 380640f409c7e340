// The CUDA port of smooth_kernels.smooth: the same parameters, one thread per point.
extern "C" __global__ void smooth(const double* u, double* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    if (i == 0 || i == n - 1) {
        out[i] = u[i];
    } else {
        out[i] = 0.25 * u[i - 1] + 0.5 * u[i] + 0.25 * u[i + 1];
    }
}
