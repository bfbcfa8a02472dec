#include "surfdb/multibody/contact_points.hpp"

namespace surfdb {

void active_contact_points(const Simulation& sim, std::vector<ContactPoint>& points) {
  points.clear();
  for (std::size_t c = 0; c < sim.contacts().size(); ++c) {
    const int contact = static_cast<int>(c);
    sim.contacts()[c].for_each_pair([&](const ContactPair& pair) {
      if (const PolygonalContactResult* a = pair.areal()) {
        if (a->in_contact())
          points.push_back({contact, a->centre, pair.state().last.normal, a->max_penetration, a->force_i});
        return;
      }
      const std::span<const ContactResult> results = pair.results();
      for (std::size_t k = 0; k < results.size(); ++k) {
        if (!pair.active(k)) continue;
        const ContactResult& r = results[k];
        const ContactForces f = pair.forces(k);
        points.push_back({contact, 0.5 * (r.point_i + r.point_j), r.normal, r.indentation,
                          f.normal * r.normal + f.tangential});
      }
    });
  }
}

}  // namespace surfdb
