// `surfdb simulate --animation`: a ParaView time series of the run, written at the output instants
// (those of time_series.csv's rows).
//
//   OUTDIR/animation.pvd                  the collection: per instant data sets with timestep =
//                                         t (s), part 0 "surfaces", part 1 "contacts" and, when
//                                         the ground has surfaces, part 2 "ground"
//   OUTDIR/animation/frame_NNNNNN.vtp     the bodies' surfaces at instant NNNNNN (animation_frame.hpp)
//   OUTDIR/animation/contacts_NNNNNN.vtp  the contact points and forces at that instant
//   OUTDIR/animation/ground.vtp           the ground's surfaces, which never move: written once,
//                                         every instant's part 2
//   OUTDIR/animation/scene.gltf, scene.bin  the same run as one glTF scene: each body's surfaces
//                                         once, moved by its poses (animation_gltf.hpp)
//
// The frames go into a hidden temporary directory beside OUTDIR/animation, which replaces it whole
// when the run ends; then the collection is renamed into place, listing them. A failed,
// interrupted or killed run therefore leaves the previous animation as it was (a signal removes
// the temporaries; the next writer removes those of a killed run), and no collection ever names
// a frame that is not there.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "animation_frame.hpp"
#include "atomic_file.hpp"
#include "surfdb/formats/temporary_file.hpp"

namespace surfdb::cli {

class AnimationWriter : public RunObserver {
 public:
  /// Checks the outputs before the run and tessellates the surfaces (planes sized at the state y0).
  /// Throws std::runtime_error when OUTDIR/animation.pvd or a file in OUTDIR/animation is one of
  /// `inputs`, when OUTDIR/animation is not a directory or holds files other than frames, or when
  /// either cannot be written.
  /// Frames are written at the output instants no closer than `interval` (s; 0: at every one),
  /// the first and the one at `end_time` (s) always.
  AnimationWriter(const std::filesystem::path& outdir, const Simulation& sim, const double* y0,
                  const std::vector<std::filesystem::path>& inputs, double interval = 0, double end_time = 0);
  ~AnimationWriter() override;
  AnimationWriter(const AnimationWriter&) = delete;
  AnimationWriter& operator=(const AnimationWriter&) = delete;

  /// Writes the frame of this output instant, if it is due.
  void output(const Simulation& sim, double t, const double* y, double violation) override;

  /// After the run: moves the frames into place as OUTDIR/animation, then the collection.
  void commit();

  std::size_t frames() const { return frames_; }
  const std::filesystem::path& collection() const { return collection_path_; }

 private:
  std::filesystem::path collection_path_, directory_;  // OUTDIR/animation.pvd, OUTDIR/animation
  AtomicFile collection_;  // a row per file as the frames are written
  AnimationFrame frame_;
  TemporaryDirectory staging_;  // the frames during the run; made last: a failed construction would leave it
  std::string path_;            // a frame's path in staging_, its first staging_prefix_ characters the directory's
  std::size_t staging_prefix_ = 0;
  std::size_t frames_ = 0;
  double interval_ = 0, end_time_ = 0, next_ = 0;  // s: the schedule of frames
  bool committed_ = false;
};

}  // namespace surfdb::cli
