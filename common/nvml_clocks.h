/* The clocks an NVIDIA device runs at now, from NVML (libnvidia-ml.so.1,
 * the driver's management library), opened at run time.  Shared by the
 * backends that reach NVIDIA devices; the device is named by its PCI bus
 * id, which both the CUDA driver and NVIDIA's OpenCL give. */
#ifndef SB_NVML_CLOCKS_H
#define SB_NVML_CLOCKS_H

#include <stddef.h>

/* The current SM and memory clocks in MHz of the device at pci_bus_id
 * ("0000:19:00.0"); 0, or -1 with why (n bytes): no NVML, or it does not
 * know the device.  The first call loads NVML for the process. */
int sb_nvml_clocks(const char *pci_bus_id, int *sm_mhz, int *mem_mhz, char *why, size_t n);

#endif
