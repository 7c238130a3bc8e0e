// Streaming libsoxr resampling for the assemble encoders.
// Thread-safety: see encode_resample.h.
#include "encode_resample.h"

#include <soxr.h>

#include <cmath>
#include <string>

namespace narrate {
namespace assemble_internal {

StatusOr<std::unique_ptr<StreamResampler>> StreamResampler::Create(int in_rate, int out_rate) {
  soxr_io_spec_t io = soxr_io_spec(SOXR_INT16_I, SOXR_FLOAT32_I);
  soxr_quality_spec_t quality = soxr_quality_spec(SOXR_VHQ, 0);
  soxr_runtime_spec_t runtime = soxr_runtime_spec(1);  // one thread
  soxr_error_t error = nullptr;
  soxr_t soxr = soxr_create(in_rate, out_rate, 1, &error, &io, &quality, &runtime);
  if (soxr == nullptr || error != nullptr) {
    if (soxr != nullptr) soxr_delete(soxr);
    return Status::Failure("cannot resample " + std::to_string(in_rate) + " Hz to " +
                           std::to_string(out_rate) +
                           " Hz: " + (error != nullptr ? error : "soxr_create failed"));
  }
  std::unique_ptr<StreamResampler> r(new StreamResampler());
  r->soxr_ = soxr;
  r->ratio_ = static_cast<double>(out_rate) / in_rate;
  return r;
}

StreamResampler::~StreamResampler() {
  if (soxr_ != nullptr) soxr_delete(static_cast<soxr_t>(soxr_));
}

Status StreamResampler::Process(const int16_t* samples, size_t count, std::vector<float>* out) {
  soxr_t soxr = static_cast<soxr_t>(soxr_);
  size_t done_in = 0;
  while (done_in < count) {
    const size_t chunk = count - done_in;
    const size_t room = static_cast<size_t>(std::ceil(chunk * ratio_)) + 64;
    const size_t old_size = out->size();
    out->resize(old_size + room);
    size_t idone = 0, odone = 0;
    soxr_error_t error =
        soxr_process(soxr, samples + done_in, chunk, &idone, out->data() + old_size, room, &odone);
    out->resize(old_size + odone);
    if (error != nullptr) return Status::Failure(std::string("resampling: ") + error);
    done_in += idone;
  }
  return Status::Ok();
}

Status StreamResampler::Flush(std::vector<float>* out) {
  soxr_t soxr = static_cast<soxr_t>(soxr_);
  constexpr size_t kChunk = 4096;
  while (true) {
    const size_t old_size = out->size();
    out->resize(old_size + kChunk);
    size_t odone = 0;
    soxr_error_t error =
        soxr_process(soxr, nullptr, 0, nullptr, out->data() + old_size, kChunk, &odone);
    out->resize(old_size + odone);
    if (error != nullptr) return Status::Failure(std::string("resampling: ") + error);
    if (odone == 0) return Status::Ok();
  }
}

}  // namespace assemble_internal
}  // namespace narrate
